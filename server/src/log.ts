/** How the process's long-lived services log: a level, a message and its fields (cli/lifecycle.ts writes them with pino). */
export type Log = (level: 'error' | 'warn' | 'info', msg: string, extra?: object) => void;
