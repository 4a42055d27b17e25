import { ApiErrorRow, DomainException } from '@fleet/errors';

/** What can go wrong in query-api that a client is told about. */
export enum QueryApiExceptionCode {
  CompanyNotFound = 'COMPANY_NOT_FOUND',
  VehicleNotFound = 'VEHICLE_NOT_FOUND',
  /** The vehicle exists and is visible, but has not reported (or been heard from) yet. */
  NoPositionYet = 'NO_POSITION_YET',
  InvalidTimeRange = 'INVALID_TIME_RANGE',
  InvalidVehicleLookup = 'INVALID_VEHICLE_LOOKUP',
  InvalidVehicle = 'INVALID_VEHICLE',
  ImeiTaken = 'IMEI_TAKEN',
}

const rows: Record<QueryApiExceptionCode, ApiErrorRow> = {
  [QueryApiExceptionCode.CompanyNotFound]: ApiErrorRow.NotFound,
  [QueryApiExceptionCode.VehicleNotFound]: ApiErrorRow.NotFound,
  [QueryApiExceptionCode.NoPositionYet]: ApiErrorRow.NotFound,
  [QueryApiExceptionCode.InvalidTimeRange]: ApiErrorRow.InvalidInput,
  [QueryApiExceptionCode.InvalidVehicleLookup]: ApiErrorRow.InvalidInput,
  [QueryApiExceptionCode.InvalidVehicle]: ApiErrorRow.InvalidInput,
  [QueryApiExceptionCode.ImeiTaken]: ApiErrorRow.InvalidInput,
};

export class QueryApiException extends DomainException<QueryApiExceptionCode> {
  constructor(code: QueryApiExceptionCode, description: string) {
    super(code, rows, description);
  }
}
