import { AppProcess } from './app-process';
import { testJwtSecret, testKafkaBrokers, uniqueNamespace } from './kafka';
import { createTestDatabase, TestDatabase } from './postgres';

/**
 * The set-up every end-to-end test of the distributed mode shares: a database and a Kafka namespace of
 * its own, the environment all its service processes get (database, brokers, namespace, the test JWT
 * secret, and whatever the test adds), the processes it starts, and the teardown that kills them and
 * drops the database.
 */
export class DistributedServices {
  /** Every process started through {@link start}, in order, for {@link close}. */
  private readonly started: AppProcess[] = [];

  private constructor(
    readonly database: TestDatabase,
    readonly namespace: string,
    /** What every service started here gets (plus what `start` adds). */
    readonly env: Record<string, string>,
  ) {}

  /** A fresh database and namespace (`label` names it); `env` is added to every service's environment. */
  static async open(label: string, env: Record<string, string> = {}): Promise<DistributedServices> {
    const database = await createTestDatabase();
    const namespace = uniqueNamespace(label);
    return new DistributedServices(database, namespace, {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      KAFKA_NAMESPACE: namespace,
      AUTH_JWT_SECRET: testJwtSecret,
      ...env,
    });
  }

  /** Starts `app` with the shared environment and `env` on top; resolves once it is ready. */
  async start(app: string, env: Record<string, string> = {}): Promise<AppProcess> {
    const process = await AppProcess.start(app, { ...this.env, ...env });
    this.started.push(process);
    return process;
  }

  /**
   * Kills every process started here that is still running (SIGKILL: a test of graceful stops signals
   * its processes itself), then drops the database.
   */
  async close(): Promise<void> {
    await Promise.all(this.started.map((process) => process.kill('SIGKILL')));
    await this.database.drop();
  }
}
