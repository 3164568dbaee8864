import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

// The operator commands' arguments (backup, restore, create-user): one way to read them, so each
// says the same on a wrong option (its usage, exit code 2) and on --help (its usage, exit code 0).

/** Prints the message and the usage to stderr and exits with code 2 (bad arguments). */
export function usageError(help: string, message: string): never {
  console.error(`${message}\n\n${help}`);
  process.exit(2);
}

type HelpOption = { help: { type: 'boolean'; short: 'h' } };

/** The command's options (strict: an unknown or malformed one is a usage error); --help / -h prints the usage and exits. */
export function commandArgs<const O extends ParseArgsOptionsConfig>(help: string, options: O, opts: { allowNegative?: boolean } = {}) {
  const config = { options: { ...options, help: { type: 'boolean', short: 'h' } } as O & HelpOption, strict: true as const, allowNegative: opts.allowNegative };
  let values: ReturnType<typeof parseArgs<typeof config>>['values'];
  try {
    values = parseArgs(config).values;
  } catch (e) {
    usageError(help, (e as Error).message);
  }
  if ((values as { help?: boolean }).help) {
    console.log(help);
    process.exit(0);
  }
  return values;
}
