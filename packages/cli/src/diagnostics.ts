/** Every message text the CLI itself prints (commands add theirs here). */
export const CLI_MESSAGES = {
  unknownCommand: (name: string) => `raptor: unknown command '${name}'`,
  internalError: (invocation: string, detail: string) =>
    `raptor: internal error (please report it with the input that triggered it)\n  invocation: raptor ${invocation}\n${detail}`,
} as const;
