import { YeoulError, type YeoulErrorOptions } from '../../core/index.ts';

/** The address the server was asked to listen on is taken (another server, another Yeoul). */
export class PortInUseError extends YeoulError {
  readonly host: string;
  readonly port: number;

  constructor(fields: { host: string; port: number }, options: YeoulErrorOptions = {}) {
    super(
      'port_in_use',
      `port ${fields.port} on ${fields.host} is already in use (another yeoul serve?); choose another with --port N (or PORT)`,
      options,
    );
    this.host = fields.host;
    this.port = fields.port;
  }
}
