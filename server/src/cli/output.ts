/** CLI conventions: human text by default, one JSON document with --json; errors on stderr with exit codes. */
export const EXIT = { ok: 0, failure: 1, usage: 2, config: 3 } as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message);
  }
}

export function print(json: boolean, value: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}
