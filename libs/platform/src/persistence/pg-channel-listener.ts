import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { listen } from './catalog.queries';

/** Wait before listening again after the listening connection failed. */
const RECONNECT_MS = 1_000;

export interface PgChannelListenerOptions {
  connectionString: string;
  /** A PostgreSQL identifier (it is written into the LISTEN statement). */
  channel: string;
  /** Shown in pg_stat_activity. */
  applicationName: string;
  /** Each notification's payload ('' when the notifier sent none). */
  onNotify: (payload: string) => void;
  /**
   * Called once listening (again): notifications sent while the connection was down are lost, so the
   * caller reads what it may have missed.
   */
  onListening?: () => void;
}

/**
 * One connection LISTENing on a channel, reconnecting after a failure. Notifications only wake their
 * listener sooner: whoever uses them must still find the work without one (a periodic read), since
 * PostgreSQL does not keep them for a connection that was down.
 */
export class PgChannelListener {
  private readonly logger: Logger;
  private client?: Client;
  private stopped = false;
  private retry?: NodeJS.Timeout;

  constructor(private readonly options: PgChannelListenerOptions) {
    if (!/^[a-z_][a-z0-9_]*$/.test(options.channel)) {
      throw new Error(`channel must be a lower-case SQL identifier, got "${options.channel}"`);
    }
    this.logger = new Logger(`PgChannel(${options.channel})`);
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.listen();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
  }

  private async listen(): Promise<void> {
    const client = new Client({
      connectionString: this.options.connectionString,
      application_name: this.options.applicationName,
    });
    client.on('notification', (message) => this.options.onNotify(message.payload ?? ''));
    client.on('error', (error) => {
      this.logger.warn({ msg: 'notifications interrupted; listening again', err: error });
      void client.end().catch(() => undefined);
      this.again();
    });
    try {
      await client.connect();
      await listen(client, this.options.channel);
      if (this.stopped) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.options.onListening?.();
    } catch (error) {
      this.logger.warn({ msg: 'cannot listen for notifications yet', err: error });
      await client.end().catch(() => undefined);
      this.again();
    }
  }

  private again(): void {
    if (this.stopped) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.listen(), RECONNECT_MS).unref();
  }
}
