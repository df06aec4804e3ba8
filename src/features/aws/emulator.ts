import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import * as vscode from 'vscode';
import type { Services } from '../services';
import type { ResetForTests } from '../testHooks';
import { useEndpointForWindow } from './settings';

const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+)/;
const START_TIMEOUT_MS = 60_000;

/**
 * `MTRL: Try the Local Emulator`: starts `mtrl emulator` for this window and points its AWS calls at it, until the window
 * closes. The UI checks' reset stops it and gives the settings back.
 */
export function registerEmulatorCommand(services: Services): ResetForTests {
  let running: { child: ChildProcess; url: string } | undefined;
  const stop = () => {
    running?.child.kill();
    running = undefined;
  };
  services.context.subscriptions.push(
    { dispose: stop },
    vscode.commands.registerCommand('mtrl.tryEmulator', async () => {
      if (!running) {
        const started = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: 'Starting the local MTRL emulator…', cancellable: true },
          (_progress, token) => startEmulator(services.context.extensionPath, token),
        );
        if (!started) return;
        running = started;
        started.child.once('exit', (code) => {
          if (running?.child !== started.child) return;
          running = undefined;
          useEndpointForWindow(undefined);
          services.output.warn(`The local emulator stopped (exit code ${code}); AWS calls follow the settings again.`);
        });
        services.output.info(`The local emulator runs at ${started.url} for this window.`);
      }
      useEndpointForWindow({ endpoint: running.url, region: 'us-east-1' });
      await vscode.commands.executeCommand('mtrl.jobs.focus');
      void vscode.window.showInformationMessage(
        `MTRL now talks to the local emulator (${running.url}) in this window: its jobs, runtimes and data are a demo world that costs nothing. Reload the window to use your AWS settings again.`,
      );
    }),
  );
  return {
    resetForTests: async () => {
      if (!running) return;
      stop();
      useEndpointForWindow(undefined);
    },
  };
}

/** Runs the packaged CLI's emulator with the extension host's Node; resolves with its URL, or undefined when cancelled or failed (said). */
function startEmulator(extensionPath: string, token: vscode.CancellationToken): Promise<{ child: ChildProcess; url: string } | undefined> {
  const cli = path.join(extensionPath, 'dist/cli.js');
  // ELECTRON_RUN_AS_NODE: desktop VS Code's executable is Electron, which runs a script as Node only when asked.
  const child = spawn(process.execPath, [cli, 'emulator', '--port', '0', '--seed', '1'], {
    cwd: extensionPath,
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve) => {
    let output = '';
    let settled = false;
    const finish = (url: string | undefined, failure?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      cancelled.dispose();
      // From here on its output is not needed: drained, so a full pipe never blocks it.
      for (const stream of [child.stdout, child.stderr]) {
        stream?.removeAllListeners('data');
        stream?.resume();
      }
      if (url) return resolve({ child, url });
      child.kill();
      if (failure) void vscode.window.showErrorMessage(`The local emulator did not start: ${failure}`);
      resolve(undefined);
    };
    const timer = setTimeout(() => finish(undefined, `no address within ${START_TIMEOUT_MS / 1000} s.`), START_TIMEOUT_MS);
    const cancelled = token.onCancellationRequested(() => finish(undefined));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = LISTENING.exec(output);
      if (match) finish(match[1]);
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', (error) => finish(undefined, error.message));
    child.once('exit', (code) => finish(undefined, `it exited with code ${code}: ${output.trim().split('\n').pop() ?? ''}`));
  });
}
