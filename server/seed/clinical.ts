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

/** The normal text of each body part: the demo templates and the demo's normal reports are the same words. */
const NORMAL: Record<string, [string, string]> = {
  胸部: ['<p>双肺纹理清晰，走行自然，肺野内未见明显实变影。两肺门不大，纵隔居中。心影大小、形态未见异常。双膈面光整，肋膈角锐利。</p>', '<p>胸部未见明显异常。</p>'],
  头颅: ['<p>脑实质内未见异常密度影，灰白质分界清楚。脑室系统未见扩大，脑沟、脑裂未见增宽。中线结构居中。</p>', '<p>颅脑未见明显异常。</p>'],
  腹部: ['<p>肝脏大小形态正常，实质密度（回声）均匀，肝内外胆管未见扩张。胆囊壁光滑。胰腺、脾脏未见异常。</p>', '<p>腹部未见明显异常。</p>'],
  腰椎: ['<p>腰椎生理曲度存在，椎体骨质未见破坏，椎间隙未见变窄，椎小关节未见异常。</p>', '<p>腰椎未见明显异常。</p>'],
  颈椎: ['<p>颈椎生理曲度存在，各椎体形态、信号（密度）未见异常，椎间隙未见狭窄，椎管未见狭窄。</p>', '<p>颈椎未见明显异常。</p>'],
  膝关节: ['<p>膝关节诸骨骨质未见破坏，关节间隙正常，半月板及前后交叉韧带形态、信号未见异常，关节腔未见积液。</p>', '<p>膝关节未见明显异常。</p>'],
  腕关节: ['<p>腕关节诸骨骨质完整，关节间隙正常，周围软组织未见肿胀。</p>', '<p>腕关节未见明显异常。</p>'],
  踝关节: ['<p>踝关节诸骨骨质完整，关节面光整，关节间隙正常，周围软组织未见肿胀。</p>', '<p>踝关节未见明显异常。</p>'],
  肩关节: ['<p>肩关节诸骨骨质未见破坏，关节间隙正常，肩袖形态未见异常，关节腔未见积液。</p>', '<p>肩关节未见明显异常。</p>'],
  骨盆: ['<p>骨盆诸骨骨质完整，双侧髋关节间隙正常，骶髂关节未见异常。</p>', '<p>骨盆未见明显异常。</p>'],
  盆腔: ['<p>膀胱充盈良好，壁光整；子宫（前列腺）大小形态正常；盆腔内未见肿大淋巴结及积液。</p>', '<p>盆腔未见明显异常。</p>'],
  冠脉CTA: ['<p>冠状动脉呈右优势型，左主干、前降支、回旋支及右冠状动脉管壁光整，管腔未见狭窄。</p>', '<p>冠状动脉CTA未见明显异常。</p>'],
  甲状腺: ['<p>甲状腺左右叶及峡部大小形态正常，包膜光整，实质回声均匀，未见明显结节，CDFI未见异常血流。</p>', '<p>甲状腺未见明显异常。</p>'],
  乳腺: ['<p>双侧乳腺腺体结构清晰，回声均匀，未见明显占位，双侧腋窝未见肿大淋巴结。</p>', '<p>双侧乳腺未见明显异常。</p>'],
  双侧乳腺: ['<p>双侧乳腺呈散在纤维腺体型，未见肿块、结构扭曲及可疑钙化，双侧腋窝未见肿大淋巴结。</p>', '<p>双侧乳腺未见明显异常，BI-RADS 1类。</p>'],
  心脏: ['<p>各房室大小正常，室壁厚度及运动未见异常，各瓣膜形态、启闭未见异常，左室收缩功能正常。</p>', '<p>心脏结构及功能未见明显异常。</p>'],
  泌尿系: ['<p>双肾大小形态正常，皮髓质分界清，集合系统未见分离，双侧输尿管未见扩张，膀胱壁光滑。</p>', '<p>泌尿系未见明显异常。</p>'],
  妇科: ['<p>子宫前位，大小形态正常，肌层回声均匀，内膜居中，双侧附件区未见明显占位。</p>', '<p>子宫及双附件未见明显异常。</p>'],
};

/** Abnormal findings a body part's report may carry; a part without any gets a normal report. */
const ABNORMAL: Record<string, [string, string][]> = {
  胸部: [['<p>右肺上叶见一结节影，大小约8mm×6mm，边缘可见分叶，邻近胸膜牵拉。</p>', '<p>右肺上叶结节，建议短期复查或进一步增强检查。</p>'],
    ['<p>双肺下叶见斑片状模糊影，边界不清，双侧少量胸腔积液。</p>', '<p>双肺下叶炎症，双侧少量胸腔积液。</p>']],
  腰椎: [['<p>L4/5椎间盘向后突出，硬膜囊受压，双侧神经根受压。</p>', '<p>L4/5椎间盘突出。</p>']],
  颈椎: [['<p>C5/6椎间盘向后突出，相应水平硬膜囊前缘受压。</p>', '<p>C5/6椎间盘突出。</p>']],
  头颅: [['<p>左侧基底节区见斑片状低密度影，边界欠清。</p>', '<p>左侧基底节区腔隙性脑梗死。</p>']],
  腹部: [['<p>肝右叶见一类圆形低密度（低回声）结节，直径约15mm，边界清。</p>', '<p>肝右叶结节，建议进一步检查。</p>'],
    ['<p>胆囊内见一强回声（高密度）影，大小约10mm，后方伴声影。</p>', '<p>胆囊结石。</p>']],
  甲状腺: [['<p>甲状腺右叶见一低回声结节，大小约9mm×7mm，纵横比小于1，边缘光整。</p>', '<p>甲状腺右叶结节，TI-RADS 3类。</p>']],
  膝关节: [['<p>内侧半月板后角见线样高信号达关节面，关节腔少量积液。</p>', '<p>内侧半月板后角撕裂，关节腔少量积液。</p>']],
  妇科: [['<p>子宫肌层见一低回声结节，大小约20mm×18mm，边界清，CDFI周边见环状血流。</p>', '<p>子宫肌瘤。</p>']],
  乳腺: [['<p>左乳外上象限见一低回声结节，大小约8mm×6mm，形态规则，边界清。</p>', '<p>左乳结节，BI-RADS 3类。</p>']],
  双侧乳腺: [['<p>右乳外上象限见成簇细小钙化，呈段样分布。</p>', '<p>右乳可疑钙化，BI-RADS 4A类，建议活检。</p>']],
};

/** The abnormal texts a body part's demo reports may carry. */
export function abnormalTexts(bodyPart: string): readonly [string, string][] {
  return ABNORMAL[bodyPart] ?? [];
}

/** The report of a body part: its normal text, or (when positive and the part has one) an abnormal one. */
export function reportText(r: Rng, bodyPart: string, positive: boolean): { finding: string; diagnosis: string; positive: boolean } {
  const abnormal = positive ? ABNORMAL[bodyPart] : undefined;
  if (abnormal && abnormal.length > 0) {
    const [finding, diagnosis] = r.pick(abnormal);
    return { finding, diagnosis, positive: true };
  }
  const [finding, diagnosis] = NORMAL[bodyPart] ?? [`<p>${bodyPart}检查所见结构清晰，未见明显异常征象。</p>`, `<p>${bodyPart}未见明显异常。</p>`];
  return { finding, diagnosis, positive: false };
}

export const CLINIC_IMPRESSIONS = ['咳嗽待查', '外伤后疼痛', '体检', '头痛头晕', '腰痛伴下肢麻木', '腹痛待查', '发热', '术后复查', '胸闷气短'];
export const DEPARTMENTS = ['呼吸内科', '骨科', '神经内科', '普外科', '急诊科', '体检中心', '心内科', '妇产科'];
