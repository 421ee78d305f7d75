/** What the headless command was asked on its command line. */
export type CliRequest = { readonly kind: 'help' } | { readonly kind: 'serve' | 'check'; readonly configFile?: string };

/** The command's usage, for `--help` and after a refused argument. */
export const USAGE = `usage: npm run serve [-- [--config <file>] [--check]]
       npm start [-- [--no-build] [--config <file>] [--check]]
       node --import tsx src/server/cli.ts [--config <file>] [--check]

Starts the model gateway and the document store headless, with the UI on the gateway.

  --config <file>  configuration file (YAML or JSON; a LiteLLM proxy config is read too);
                   the same as GATEHOUSE_CONFIG, which it takes precedence over
  --check          check the configuration and the environment as a start would, and exit:
                   0 when it would start (warnings printed), 2 with every problem otherwise;
                   opens no port and leaves the data folder alone
  -h, --help       this text

Everything else is set in the configuration file or the environment (GATEWAY_PORT, STORE_PORT,
GATEHOUSE_HOST, GATEHOUSE_DATA_DIR, ...): see docs/configuration.md.`;

/** An argument the command does not take: refused rather than ignored, so a setting is never lost silently. */
export class CliArgumentError extends Error {}

/**
 * Reads the command's arguments. Only `--config`, `--check` and `--help` exist: a LiteLLM user's `--port` or
 * `--model` would otherwise be ignored while the server started on defaults.
 */
export function parseCliArguments(args: readonly string[]): CliRequest {
  let configFile: string | undefined;
  let kind: 'serve' | 'check' = 'serve';
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '-h' || arg === '--help') return { kind: 'help' };
    if (arg === '--check') {
      kind = 'check';
      continue;
    }
    if (arg === '--config' || arg.startsWith('--config=')) {
      const value = arg === '--config' ? args[(index += 1)] : arg.slice('--config='.length);
      if (value === undefined || value === '' || value.startsWith('-'))
        throw new CliArgumentError('--config needs a file: --config gatehouse.yaml');
      if (configFile !== undefined) throw new CliArgumentError('--config is given twice');
      configFile = value;
      continue;
    }
    throw new CliArgumentError(
      `unknown argument '${arg}': the command takes --config <file>, --check and --help; ports, host and data folder are set in the configuration or the environment (GATEWAY_PORT, STORE_PORT, GATEHOUSE_HOST, GATEHOUSE_DATA_DIR)`,
    );
  }
  return configFile === undefined ? { kind } : { kind, configFile };
}
