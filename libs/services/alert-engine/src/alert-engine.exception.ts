import { ApiErrorRow, DomainException } from '@fleet/errors';

/** What can go wrong in alert-engine that a client is told about. */
export enum AlertEngineExceptionCode {
  CompanyNotFound = 'COMPANY_NOT_FOUND',
  ConfigurationNotFound = 'CONFIGURATION_NOT_FOUND',
  GeofenceNotFound = 'GEOFENCE_NOT_FOUND',
  RecordNotFound = 'RECORD_NOT_FOUND',
  /** A configuration or geofence body that breaks a rule (settings, type, shape); names the field. */
  InvalidDefinition = 'INVALID_DEFINITION',
  /** A record filter or date that cannot be read (an impossible date, `from` after `to`); names the field. */
  InvalidRecordQuery = 'INVALID_RECORD_QUERY',
  /** A geofence that configurations still watch cannot be deleted (docs/alerts.md, Routes). */
  GeofenceInUse = 'GEOFENCE_IN_USE',
}

const rows: Record<AlertEngineExceptionCode, ApiErrorRow> = {
  [AlertEngineExceptionCode.CompanyNotFound]: ApiErrorRow.NotFound,
  [AlertEngineExceptionCode.ConfigurationNotFound]: ApiErrorRow.NotFound,
  [AlertEngineExceptionCode.GeofenceNotFound]: ApiErrorRow.NotFound,
  [AlertEngineExceptionCode.RecordNotFound]: ApiErrorRow.NotFound,
  [AlertEngineExceptionCode.InvalidDefinition]: ApiErrorRow.InvalidInput,
  [AlertEngineExceptionCode.InvalidRecordQuery]: ApiErrorRow.InvalidInput,
  [AlertEngineExceptionCode.GeofenceInUse]: ApiErrorRow.InUse,
};

export class AlertEngineException extends DomainException<AlertEngineExceptionCode> {
  constructor(code: AlertEngineExceptionCode, description: string) {
    super(code, rows, description);
  }
}
