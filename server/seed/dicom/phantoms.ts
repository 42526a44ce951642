/**
 * Pictures for the demo studies, drawn from simple shapes so they look like what each modality shows at a glance:
 * CT and MR cross-sections that change from slice to slice, an X-ray projection, a mammogram and an ultrasound
 * sector, with a little noise. Deterministic (a seed per image), small (128–256 pixels a side).
 */
export interface Picture {
  rows: number;
  columns: number;
  /** 16-bit signed (CT, in HU with intercept 0) or unsigned; 8-bit for ultrasound. */
  bits: 8 | 16;
  signed: boolean;
  pixels: Int16Array | Uint16Array | Uint8Array;
  windowCenter: number;
  windowWidth: number;
}

export type Region = 'head' | 'chest' | 'abdomen' | 'spine' | 'limb' | 'breast' | 'neck' | 'pelvis';

/** The region a body part (as the demo writes them) is drawn as. */
export function regionOf(bodyPart: string): Region {
  if (/头|颅|脑/.test(bodyPart)) return 'head';
  if (/胸|肺|心|冠脉/.test(bodyPart)) return 'chest';
  if (/乳腺/.test(bodyPart)) return 'breast';
  if (/椎/.test(bodyPart)) return 'spine';
  if (/甲状腺|颈/.test(bodyPart)) return 'neck';
  if (/盆|妇科|骨盆|泌尿/.test(bodyPart)) return 'pelvis';
  if (/膝|踝|腕|肩|关节/.test(bodyPart)) return 'limb';
  return 'abdomen';
}

function noise(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 0xffffffff - 0.5;
  };
}

type Shape = { cx: number; cy: number; rx: number; ry: number; value: number };
const inside = (s: Shape, x: number, y: number) => ((x - s.cx) / s.rx) ** 2 + ((y - s.cy) / s.ry) ** 2 <= 1;

/** Later shapes paint over earlier ones; coordinates are fractions of the image. */
function paint(size: number, shapes: readonly Shape[], background: number, spread: number, seed: number): Float64Array {
  const out = new Float64Array(size * size);
  const rand = noise(seed);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const fx = x / size;
      const fy = y / size;
      let v = background;
      for (const s of shapes) if (inside(s, fx, fy)) v = s.value;
      out[y * size + x] = v + rand() * spread;
    }
  }
  return out;
}

/** One CT slice (HU): `t` runs 0 → 1 through the series. */
export function ctSlice(region: Region, t: number, seed: number): Picture {
  const size = 128;
  const wave = Math.sin(t * Math.PI);
  const body: Shape = { cx: 0.5, cy: 0.52, rx: 0.42, ry: 0.32, value: 40 };
  const fat: Shape = { ...body, rx: 0.44, ry: 0.34, value: -90 };
  let shapes: Shape[];
  if (region === 'head') {
    const r = 0.3 + 0.08 * wave;
    shapes = [
      { cx: 0.5, cy: 0.5, rx: r + 0.03, ry: r * 1.2 + 0.03, value: 1000 },
      { cx: 0.5, cy: 0.5, rx: r, ry: r * 1.2, value: 35 },
      { cx: 0.44, cy: 0.48, rx: 0.03 + 0.03 * wave, ry: 0.1 * wave + 0.01, value: 5 },
      { cx: 0.56, cy: 0.48, rx: 0.03 + 0.03 * wave, ry: 0.1 * wave + 0.01, value: 5 },
    ];
  } else if (region === 'chest') {
    shapes = [fat, body,
      { cx: 0.33, cy: 0.5, rx: 0.13, ry: 0.22 * (0.7 + 0.3 * wave), value: -820 },
      { cx: 0.67, cy: 0.5, rx: 0.13, ry: 0.22 * (0.7 + 0.3 * wave), value: -820 },
      { cx: 0.55, cy: 0.52, rx: 0.1 * wave + 0.02, ry: 0.09 * wave + 0.02, value: 45 },
      { cx: 0.5, cy: 0.78, rx: 0.05, ry: 0.05, value: 700 },
      { cx: 0.5, cy: 0.38, rx: 0.025, ry: 0.025, value: 150 }];
  } else {
    shapes = [fat, body,
      { cx: 0.36, cy: 0.45, rx: 0.16 * (0.6 + 0.4 * wave), ry: 0.14, value: 62 },
      { cx: 0.66, cy: 0.5, rx: 0.06, ry: 0.08 * wave + 0.02, value: 30 },
      { cx: 0.5, cy: 0.78, rx: 0.05, ry: 0.05, value: 700 },
      { cx: 0.42, cy: 0.72, rx: 0.035, ry: 0.05, value: 150 }];
  }
  const values = paint(size, shapes, -1000, 18, seed);
  const pixels = Int16Array.from(values, (v) => Math.round(v));
  const [windowCenter, windowWidth] = region === 'head' ? [40, 80] : region === 'chest' ? [-600, 1600] : [40, 400];
  return { rows: size, columns: size, bits: 16, signed: true, pixels, windowCenter, windowWidth };
}

/** One MR slice (T2-like: fluid bright). */
export function mrSlice(region: Region, t: number, seed: number): Picture {
  const size = 128;
  const wave = Math.sin(t * Math.PI);
  const shapes: Shape[] = region === 'head'
    ? [{ cx: 0.5, cy: 0.5, rx: 0.36, ry: 0.42, value: 300 },
      { cx: 0.5, cy: 0.5, rx: 0.33, ry: 0.39, value: 900 },
      { cx: 0.5, cy: 0.5, rx: 0.3, ry: 0.36, value: 620 },
      { cx: 0.5, cy: 0.5, rx: 0.2, ry: 0.26, value: 480 },
      { cx: 0.45, cy: 0.48, rx: 0.03 + 0.02 * wave, ry: 0.09 * wave + 0.01, value: 1500 },
      { cx: 0.55, cy: 0.48, rx: 0.03 + 0.02 * wave, ry: 0.09 * wave + 0.01, value: 1500 }]
    : [{ cx: 0.5, cy: 0.5, rx: 0.38, ry: 0.3, value: 700 },
      { cx: 0.5, cy: 0.5, rx: 0.12, ry: 0.2 + 0.05 * wave, value: 350 },
      { cx: 0.5, cy: 0.5, rx: 0.04, ry: 0.22, value: 1400 },
      { cx: 0.32, cy: 0.5, rx: 0.08, ry: 0.12, value: 500 },
      { cx: 0.68, cy: 0.5, rx: 0.08, ry: 0.12, value: 500 }];
  const values = paint(size, shapes, 0, 40, seed);
  const pixels = Uint16Array.from(values, (v) => Math.max(0, Math.round(v)));
  return { rows: size, columns: size, bits: 16, signed: false, pixels, windowCenter: 700, windowWidth: 1400 };
}

/** An X-ray projection (CR, DX): dense structures bright. */
export function projection(region: Region, seed: number): Picture {
  const size = 256;
  const shapes: Shape[] = region === 'chest'
    ? [{ cx: 0.5, cy: 0.55, rx: 0.44, ry: 0.44, value: 2200 },
      { cx: 0.33, cy: 0.5, rx: 0.15, ry: 0.3, value: 900 },
      { cx: 0.67, cy: 0.5, rx: 0.15, ry: 0.3, value: 900 },
      { cx: 0.57, cy: 0.62, rx: 0.13, ry: 0.12, value: 2000 },
      { cx: 0.5, cy: 0.5, rx: 0.03, ry: 0.4, value: 2600 }]
    : region === 'limb'
      ? [{ cx: 0.5, cy: 0.5, rx: 0.2, ry: 0.48, value: 1500 }, { cx: 0.5, cy: 0.5, rx: 0.08, ry: 0.48, value: 3000 }]
      : [{ cx: 0.5, cy: 0.5, rx: 0.42, ry: 0.46, value: 1700 }, { cx: 0.5, cy: 0.5, rx: 0.05, ry: 0.46, value: 3000 },
        { cx: 0.3, cy: 0.75, rx: 0.14, ry: 0.1, value: 2600 }, { cx: 0.7, cy: 0.75, rx: 0.14, ry: 0.1, value: 2600 }];
  const values = paint(size, shapes, 200, 60, seed);
  return { rows: size, columns: size, bits: 16, signed: false, pixels: Uint16Array.from(values, (v) => Math.max(0, Math.round(v))), windowCenter: 1800, windowWidth: 3200 };
}

/** A mammogram (MLO-like): a half-ellipse of breast tissue against the film. */
export function mammogram(seed: number): Picture {
  const size = 256;
  const shapes: Shape[] = [
    { cx: 0, cy: 0.5, rx: 0.75, ry: 0.46, value: 1600 },
    { cx: 0, cy: 0.45, rx: 0.5, ry: 0.3, value: 2300 },
    { cx: 0.3, cy: 0.5, rx: 0.04, ry: 0.04, value: 2900 },
  ];
  const values = paint(size, shapes, 100, 120, seed);
  return { rows: size, columns: size, bits: 16, signed: false, pixels: Uint16Array.from(values, (v) => Math.max(0, Math.round(v))), windowCenter: 1800, windowWidth: 3000 };
}

/** An ultrasound frame: a sector of speckle with a darker, round structure in it. */
export function ultrasound(seed: number): Picture {
  const size = 256;
  const rand = noise(seed);
  const pixels = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const dx = x - size / 2;
      const dy = y + 10;
      const r = Math.hypot(dx, dy);
      const angle = Math.atan2(dx, dy);
      if (r > size * 0.95 || Math.abs(angle) > 0.62) continue;
      const speckle = 70 + 60 * (rand() + 0.5) * (1 - r / size / 1.4);
      const cyst = Math.hypot(x - size * 0.55, y - size * 0.55) < size * 0.12;
      const wall = Math.hypot(x - size * 0.55, y - size * 0.55) < size * 0.135;
      pixels[y * size + x] = Math.max(0, Math.min(255, cyst ? 12 + rand() * 10 : wall ? speckle + 60 : speckle));
    }
  }
  return { rows: size, columns: size, bits: 8, signed: false, pixels, windowCenter: 128, windowWidth: 256 };
}
