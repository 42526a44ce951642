// Writes public/sounds/notify.wav: the new-exam chime (two soft sine notes, E6 then A5, 0.45 s, 16-bit mono 22.05 kHz).
// A script rather than a downloaded sound so the file's origin and licence are plain. Run: node scripts/notify-sound.mjs
import { mkdirSync, writeFileSync } from 'node:fs';

const rate = 22_050;
const notes = [
  { freq: 1318.5, start: 0, length: 0.22 },
  { freq: 880, start: 0.16, length: 0.29 },
];
const seconds = 0.45;
const samples = new Float32Array(Math.round(rate * seconds));
for (const note of notes) {
  const from = Math.round(note.start * rate);
  const count = Math.round(note.length * rate);
  for (let i = 0; i < count && from + i < samples.length; i++) {
    const t = i / rate;
    // A quick attack and an exponential decay, so it reads as a chime rather than a beep; a little second harmonic.
    const envelope = Math.min(1, t / 0.006) * Math.exp(-t * 9);
    samples[from + i] += 0.32 * envelope * (Math.sin(2 * Math.PI * note.freq * t) + 0.18 * Math.sin(4 * Math.PI * note.freq * t));
  }
}
const data = Buffer.alloc(samples.length * 2);
samples.forEach((s, i) => data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, s)) * 32_767), i * 2));
const header = Buffer.alloc(44);
header.write('RIFF', 0);
header.writeUInt32LE(36 + data.length, 4);
header.write('WAVE', 8);
header.write('fmt ', 12);
header.writeUInt32LE(16, 16);
header.writeUInt16LE(1, 20); // PCM
header.writeUInt16LE(1, 22); // mono
header.writeUInt32LE(rate, 24);
header.writeUInt32LE(rate * 2, 28);
header.writeUInt16LE(2, 32);
header.writeUInt16LE(16, 34);
header.write('data', 36);
header.writeUInt32LE(data.length, 40);
mkdirSync(new URL('../public/sounds/', import.meta.url), { recursive: true });
writeFileSync(new URL('../public/sounds/notify.wav', import.meta.url), Buffer.concat([header, data]));
console.log(`public/sounds/notify.wav: ${seconds} s, ${header.length + data.length} bytes`);
