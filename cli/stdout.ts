// Output that survives a closed pipe: `psconfig-tools expand … | head` closes stdout early, and Node then reports
// EPIPE as an error event on process.stdout, which would crash the command with a stack trace. The reader has
// what it wanted: stop quietly with the status the command has so far.
export function exitQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') process.exit(process.exitCode ?? 0);
      throw err;
    });
  }
}
