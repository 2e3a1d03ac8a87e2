/** Bad input: the command exits 2 with this message (and the usage when it helps), having sent nothing. */
export class BadInput extends Error {
  constructor(
    message: string,
    readonly showUsage = true,
  ) {
    super(message);
  }
}

export function bad(message: string, showUsage = true): never {
  throw new BadInput(message, showUsage);
}
