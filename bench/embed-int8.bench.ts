// `npm run bench -- embed-int8`: the integer-weight GEMM experiment of issue 3. USE-lite with
// f32 weights (canonical) and with int8 weights x int16 activations (exact int32 accumulation via
// i32x4.dot_i16x8_s) on the 209 TF.js reference texts: cosine to TF.js (accuracy bar 0.9999) and
// CPU time per text (process.cpuUsage, less sensitive to other load than wall time).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNodeKernel, readUseLiteFile, REPO_ROOT } from '../workers/embed/node-kernel';
import { loadUseLite, type UseLiteModel } from '../workers/embed/use-lite';

async function run(): Promise<void> {
  const fixture = JSON.parse(
    readFileSync(join(REPO_ROOT, 'wasm/golden/use-lite-tfjs.json'), 'utf8'),
  ) as { texts: string[] };
  const raw = readFileSync(join(REPO_ROOT, 'wasm/golden/use-lite-tfjs.f32'));
  const ref = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  const models: Record<string, UseLiteModel> = {
    f32: await loadUseLite(await createNodeKernel(), readUseLiteFile),
    int8: await loadUseLite(await createNodeKernel(), readUseLiteFile, { weights: 'int8' }),
  };
  const report: Record<string, unknown> = { texts: fixture.texts.length };
  for (const [name, model] of Object.entries(models)) {
    let min = 1;
    let sum = 0;
    let below = 0;
    for (const t of fixture.texts.slice(0, 20)) model.embedFloat(t); // warm-up
    const u0 = process.cpuUsage();
    for (const [i, t] of fixture.texts.entries()) {
      const v = model.embedFloat(t);
      let d = 0;
      for (let j = 0; j < 512; j++) d += v[j]! * ref[i * 512 + j]!;
      min = Math.min(min, d);
      sum += d;
      if (d < 0.9999) below++;
    }
    const u = process.cpuUsage(u0);
    report[name] = {
      minCosineVsTfjs: Math.round(min * 1e6) / 1e6,
      meanCosineVsTfjs: Math.round((sum / fixture.texts.length) * 1e6) / 1e6,
      textsBelow09999: below,
      cpuMsPerText: Math.round(((u.user + u.system) / 1000 / fixture.texts.length) * 100) / 100,
    };
  }
  console.log(JSON.stringify(report, null, 2));
}

export default { name: 'embed-int8', run };
