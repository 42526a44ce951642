import type { Rng } from './random';

/** Realistic Chinese demo content: names, body parts per modality, findings and conclusions. */
export const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤'.split('');
export const GIVEN = '伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超秀兰霞平刚桂英华玉兰萍红娥玲芬燕建国建华志强海燕晓东春梅小红文博子涵欣怡浩然宇轩梓萱一诺思远俊杰雨桐佳怡明轩'.split('');

export function chineseName(r: Rng): string {
  const given = r.chance(0.6) ? r.pick(GIVEN) + r.pick(GIVEN) : r.pick(GIVEN);
  return r.pick(SURNAMES) + given;
}

export const BODY_PARTS: Record<string, readonly string[]> = {
  CR: ['胸部', '腰椎', '颈椎', '膝关节', '腕关节'],
  DX: ['胸部', '腹部', '骨盆', '踝关节', '肩关节'],
  CT: ['头颅', '胸部', '腹部', '盆腔', '颈椎', '腰椎', '冠脉CTA'],
  MR: ['头颅', '腰椎', '颈椎', '膝关节', '肩关节', '盆腔'],
  US: ['腹部', '甲状腺', '乳腺', '心脏', '泌尿系', '妇科'],
  MG: ['双侧乳腺'],
};

const NORMAL: Record<string, [string, string]> = {
  胸部: ['<p>双肺纹理清晰，走行自然，肺野内未见明显实变影。两肺门不大，纵隔居中。心影大小、形态未见异常。双膈面光整，肋膈角锐利。</p>', '<p>胸部未见明显异常。</p>'],
  头颅: ['<p>脑实质内未见异常密度影，灰白质分界清楚。脑室系统未见扩大，脑沟、脑裂未见增宽。中线结构居中。</p>', '<p>颅脑平扫未见明显异常。</p>'],
  腹部: ['<p>肝脏大小形态正常，实质回声均匀，肝内外胆管未见扩张。胆囊壁光滑。胰腺、脾脏未见异常。</p>', '<p>腹部未见明显异常。</p>'],
  腰椎: ['<p>腰椎生理曲度存在，椎体骨质未见破坏，椎间隙未见变窄，椎小关节未见异常。</p>', '<p>腰椎未见明显异常。</p>'],
};
const ABNORMAL: [string, string][] = [
  ['<p>右肺上叶见一结节影，大小约8mm×6mm，边缘可见分叶，邻近胸膜牵拉。</p>', '<p>右肺上叶结节，建议短期复查或进一步增强检查。</p>'],
  ['<p>L4/5椎间盘向后突出，硬膜囊受压，双侧神经根受压。</p>', '<p>L4/5椎间盘突出。</p>'],
  ['<p>左侧基底节区见斑片状低密度影，边界欠清。</p>', '<p>左侧基底节区腔隙性脑梗死。</p>'],
  ['<p>肝右叶见一类圆形低回声结节，直径约15mm，边界清，内部回声欠均匀。</p>', '<p>肝右叶实性结节，建议进一步检查。</p>'],
  ['<p>甲状腺右叶见一低回声结节，大小约9mm×7mm，纵横比小于1，边缘光整。</p>', '<p>甲状腺右叶结节，TI-RADS 3类。</p>'],
];

export function reportText(r: Rng, bodyPart: string, positive: boolean): { finding: string; diagnosis: string } {
  if (positive) {
    const [finding, diagnosis] = r.pick(ABNORMAL);
    return { finding, diagnosis };
  }
  const [finding, diagnosis] = NORMAL[bodyPart] ?? [`<p>${bodyPart}检查所见结构清晰，未见明显异常征象。</p>`, `<p>${bodyPart}未见明显异常。</p>`];
  return { finding, diagnosis };
}

export const CLINIC_IMPRESSIONS = ['咳嗽待查', '外伤后疼痛', '体检', '头痛头晕', '腰痛伴下肢麻木', '腹痛待查', '发热', '术后复查', '胸闷气短'];
export const DEPARTMENTS = ['呼吸内科', '骨科', '神经内科', '普外科', '急诊科', '体检中心', '心内科', '妇产科'];
