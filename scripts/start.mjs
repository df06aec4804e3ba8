// `npm start`: build the extension. The launcher into a real VS Code comes with the host harness.
import { execFileSync } from 'node:child_process';
execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
console.log('Built dist/. The real-VS-Code launcher is not in yet.');
