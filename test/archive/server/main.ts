// `npm run archive`: start the local archive on PORT (default 8085) and keep running until interrupted.
import { startArchiveServer } from './server';

async function main(): Promise<void> {
  const port = process.env.PORT !== undefined ? Number(process.env.PORT) : 8085;
  const token = process.env.PSCONFIG_ARCHIVE_TOKEN;
  // The dashboard's mesh (20 hosts) is on unless PSCONFIG_ARCHIVE_MESH=0; PSCONFIG_ARCHIVE_MESH=N seeds N hosts.
  const meshEnv = process.env.PSCONFIG_ARCHIVE_MESH;
  const mesh = meshEnv === '0' ? false : meshEnv && /^\d+$/.test(meshEnv) ? { hosts: Number(meshEnv) } : true;
  // PSCONFIG_ARCHIVE_MODE=esmond answers as deployed esmond does (201, pages of 1500); default: as the seed says.
  const mode = process.env.PSCONFIG_ARCHIVE_MODE === 'esmond' ? 'esmond' : 'seed';
  const server = await startArchiveServer({ port, tokens: token ? [token] : undefined, seed: { mesh }, mode });
  for (const w of server.seed.warnings) process.stderr.write(`warning: ${w}\n`);
  process.stdout.write(
    `local archive: ${server.url}\n` +
      `  mode: ${mode} (${mode === 'seed' ? "the seed's interface" : 'as deployed esmond answers'}; PSCONFIG_ARCHIVE_MODE=${mode === 'seed' ? 'esmond' : 'seed'} for the other)\n` +
      server.seed.sources.map((s) => `  seeded with ${s}\n`).join('') +
      `  write token: ${token ? '(from PSCONFIG_ARCHIVE_TOKEN)' : server.token}\n` +
      `  simulated failures: ${server.faultUrl('500-html').replace('500-html', '<404|401|500-json|500-html|malformed-json|hang|redirect>')}\n` +
      `  try: node dist/cli.js archive search ${server.url} --format table\n`,
  );
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`local archive failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
