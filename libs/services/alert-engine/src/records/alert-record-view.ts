import { AlertRecordFields } from '@fleet/formats';

/** One stored alert record, as the record routes read it: the fields of every reader, and its company. */
export interface AlertRecordView extends AlertRecordFields {
  companyId: number;
}
