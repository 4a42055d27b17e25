import type { StreamFigures } from './stream-clients';

/** What bench:capacity measures of one step of offered load (run.ts measures it, plot.ts draws it). */
export interface CapacityStep {
  offeredPerSecond: number;
  acceptedPerSecond: number;
  accepted: { teltonika: number; batch: number; osmand: number; failed: number };
  /** Why HTTP fixes were refused: status (or error) → requests. */
  refusals: Record<string, number>;
  lagAtEnd: Record<string, number>;
  lagAfterRecovery: Record<string, number>;
  p99Ms: {
    visible: number | null;
    alertRecord: number | null;
    webhook: number | null;
    stream: number | null;
    teltonikaAck: number | null;
  };
  samples: { visible: number; alertRecord: number; webhook: number; stream: number };
  /** The live-stream clients during the step (stream-clients.ts). */
  stream: StreamFigures;
  cpuPercentOfOneCore: Record<string, number>;
  rssMb: Record<string, number | null>;
  /** Accepted positions a second per core a process used: its cost per position, inverted. */
  positionsPerCoreSecond: Record<string, number>;
  postgresRowsPerSecond: number;
  kafkaBytesPerSecond: number;
  sustained: boolean;
  why: string[];
}
