#!/usr/bin/env node
// `npm test`: runs the package.json scripts named as arguments, in order (`npm run -s <name>`), stops at the first
// that fails, and prints how long each took, so the suite's growth shows in every run, CI's included (issue 29).
// The list of steps lives once, in package.json's "test"; this only runs and times it.
import { spawnSync } from 'node:child_process';

const steps = process.argv.slice(2);
if (steps.length === 0) {
  console.error('usage: node scripts/run-steps.mjs <npm script>...');
  process.exit(2);
}
// Under npm, npm_execpath is the npm that started us: the same one runs each step, on every platform.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];

const took = [];
let failed;
for (const step of steps) {
  const started = process.hrtime.bigint();
  const run = spawnSync(npm[0], [...npm.slice(1), 'run', '-s', step], { stdio: 'inherit', shell: npm.length === 1 && process.platform === 'win32' });
  took.push({ step, ms: Number(process.hrtime.bigint() - started) / 1e6 });
  if (run.status !== 0) {
    failed = { step, code: run.status ?? 1, why: run.error?.message ?? (run.signal ? `ended by ${run.signal}` : `exit code ${run.status}`) };
    break;
  }
}

const duration = (ms) => (ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`);
const width = Math.max(...steps.map((step) => step.length), 'total'.length);
console.log('\nHow long each step took:');
for (const { step, ms } of took) console.log(`  ${step.padEnd(width)}  ${duration(ms).padStart(12)}${failed?.step === step ? `  failed (${failed.why})` : ''}`);
for (const step of steps.slice(took.length)) console.log(`  ${step.padEnd(width)}  ${'not run'.padStart(12)}`);
console.log(`  ${'total'.padEnd(width)}  ${duration(took.reduce((sum, { ms }) => sum + ms, 0)).padStart(12)}`);
process.exit(failed ? failed.code : 0);
