import { AlertFiredV1, alertTypeById, isDeliveredToGlobalWebhooks } from '@fleet/contracts';

/** The `Data` object of a payload, per the catalog's shape of the type (spec, "Data by AlertType"). */
type WebhookData =
  | { GeofenceName: string; IsExit: boolean }
  | { IsStarted: boolean }
  | { Voltage: number; Threshold: number }
  | { Speed: number; MaxSpeed: number }
  | null;

/**
 * The body of a webhook event (spec, "Payload"), as the exact text every attempt sends: PascalCase
 * keys in the spec's order, the type's webhook label, the position, heading 0–359, the fix time in
 * UTC with `Z`, the address in parts or null, and the type's `Data`. JSON numbers carry no decimal
 * point for whole values (`12`, not `12.0`): that is how JavaScript writes numbers.
 *
 * Undefined for a type that is never delivered (15, 16, 17, 20): no webhook receives those.
 */
export function webhookBodyOf(alert: AlertFiredV1): string | undefined {
  const type = alertTypeById(alert.alertTypeId);
  if (!type?.webhookLabel || !isDeliveredToGlobalWebhooks(alert.alertTypeId)) return undefined;
  const address = alert.address;
  return JSON.stringify({
    AlertType: type.webhookLabel,
    VehicleId: alert.vehicleId,
    VehicleName: alert.vehicleName,
    Position: { Lat: alert.lat, Lng: alert.lng },
    Direction: directionOf(alert.course),
    Timestamp: new Date(alert.fixTime).toISOString(),
    Address: address
      ? {
          Street: address.street ?? null,
          Suburb: address.suburb ?? null,
          State: address.state ?? null,
          Postcode: address.postcode ?? null,
          Country: address.country ?? null,
        }
      : null,
    Data: dataOf(alert),
  });
}

/** Whole degrees 0–359 (the event already carries them; this keeps the promise for any input). */
function directionOf(course: number): number {
  const whole = Math.round(course) % 360;
  return whole < 0 ? whole + 360 : whole;
}

function dataOf(alert: AlertFiredV1): WebhookData {
  const type = alertTypeById(alert.alertTypeId);
  const data = alert.data ?? {};
  // Types delivered to global webhooks only carry no data (spec: ids 3, 12, 13, 14 with Data null).
  if (!type || type.delivery !== 'linkable') return null;
  switch (type.data.kind) {
    case 'geofence':
      return { GeofenceName: data.geofenceName ?? '', IsExit: data.isExit ?? type.data.isExit };
    case 'ignition':
      return { IsStarted: data.isStarted ?? type.data.isStarted };
    case 'low-battery':
      return { Voltage: data.voltage ?? 0, Threshold: data.threshold ?? 0 };
    case 'overspeed':
      return { Speed: data.speed ?? 0, MaxSpeed: data.maxSpeed ?? 0 };
    case 'none':
      return null;
  }
}
