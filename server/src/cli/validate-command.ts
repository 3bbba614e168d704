// Placeholder until the validate command lands; replaced by its owner.
export async function runValidateCommand(_args: string[]): Promise<number> {
  process.stderr.write('psconfig-tools validate: not built yet\n');
  return 2;
}
