// The worker's entry when the server runs from its sources (tests, `npm run dev`): a worker
// thread does not inherit the `--import tsx` loader, so it registers it and then loads worker.ts.
// `npm start` runs dist/xlsxWorker.js instead, which build.mjs builds from worker.ts.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
