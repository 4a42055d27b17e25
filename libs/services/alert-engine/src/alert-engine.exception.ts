import { ApiErrorRow, DomainException } from '@fleet/errors';

/** What can go wrong in alert-engine that a client is told about. */
export enum AlertEngineExceptionCode {
  CompanyNotFound = 'COMPANY_NOT_FOUND',
  ConfigurationNotFound = 'CONFIGURATION_NOT_FOUND',
  GeofenceNotFound = 'GEOFENCE_NOT_FOUND',
  RecordNotFound = 'RECORD_NOT_FOUND',
  /** A configuration or geofence body that breaks a rule (settings, type, shape); names the field. */
  InvalidDefinition = 'INVALID_DEFINITION',
}

const rows: Record<AlertEngineExceptionCode, ApiErrorRow> = {
  [AlertEngineExceptionCode.CompanyNotFound]: ApiErrorRow.NotFound,
  [AlertEngineExceptionCode.ConfigurationNotFound]: ApiErrorRow.NotFound,
  [AlertEngineExceptionCode.GeofenceNotFound]: ApiErrorRow.NotFound,
  [AlertEngineExceptionCode.RecordNotFound]: ApiErrorRow.NotFound,
  [AlertEngineExceptionCode.InvalidDefinition]: ApiErrorRow.InvalidInput,
};

export class AlertEngineException extends DomainException<AlertEngineExceptionCode> {
  constructor(code: AlertEngineExceptionCode, description: string) {
    super(code, rows, description);
  }
}
