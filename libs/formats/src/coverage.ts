/**
 * Coverage labels of the position record, from the raw values trackers report (docs/telemetry.md).
 * Satellites: the number used in the fix. Network: signal bars 0–5.
 */
export type CoverageLabel = 'NoSignal' | 'Poor' | 'Fair' | 'Good' | 'Excellent';

export function satelliteCoverage(satellites: number | undefined): CoverageLabel | null {
  if (satellites === undefined) return null;
  if (satellites <= 0) return 'NoSignal';
  if (satellites <= 3) return 'Poor';
  if (satellites <= 5) return 'Fair';
  if (satellites <= 8) return 'Good';
  return 'Excellent';
}

export function networkCoverage(bars: number | undefined): CoverageLabel | null {
  if (bars === undefined) return null;
  if (bars <= 0) return 'NoSignal';
  if (bars === 1) return 'Poor';
  if (bars === 2) return 'Fair';
  if (bars === 3) return 'Good';
  return 'Excellent';
}
