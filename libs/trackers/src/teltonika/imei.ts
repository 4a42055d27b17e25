import { TeltonikaError } from './teltonika-error';

/** IMEIs are 15 digits; 20 leaves room for the odd device identifier without letting a length field run away. */
const MAX_IMEI_LENGTH = 20;
const IMEI = /^[0-9]+$/;

/** Checked as soon as the 2-byte length arrives, so a garbage length never waits for its body. */
export function checkImeiLength(length: number): void {
  if (length < 1 || length > MAX_IMEI_LENGTH) {
    throw new TeltonikaError('bad-imei', `IMEI length ${length} is outside 1..${MAX_IMEI_LENGTH}`);
  }
}

export function parseImei(bytes: Buffer): string {
  checkImeiLength(bytes.length);
  const imei = bytes.toString('latin1');
  if (!IMEI.test(imei))
    throw new TeltonikaError('bad-imei', `IMEI ${JSON.stringify(imei)} is not all digits`);
  return imei;
}

export function imeiBytes(imei: string): Buffer {
  if (!IMEI.test(imei) || imei.length > MAX_IMEI_LENGTH) {
    throw new TeltonikaError('bad-imei', `IMEI ${JSON.stringify(imei)} is not 1..${MAX_IMEI_LENGTH} digits`);
  }
  return Buffer.from(imei, 'latin1');
}
