/** The value after `--name` on the bench's command line (`npm run bench:x -- --name value`), if given. */
export function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
