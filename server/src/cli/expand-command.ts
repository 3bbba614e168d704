// Placeholder until the expand command lands; replaced by its owner.
export async function runExpandCommand(_args: string[]): Promise<number> {
  process.stderr.write('psconfig-tools expand: not built yet\n');
  return 2;
}
