import { ApiErrorRow, DomainException } from '@fleet/errors';

/** What can go wrong in webhook-dispatcher that a client is told about. */
export enum WebhookDispatcherExceptionCode {
  WebhookNotFound = 'WEBHOOK_NOT_FOUND',
  DeliveryNotFound = 'DELIVERY_NOT_FOUND',
  /** A webhook input that breaks a rule (url, alertIds, isGlobal); names the field. */
  InvalidWebhook = 'INVALID_WEBHOOK',
  /** A linked configuration that does not exist, is deleted or is another company's. */
  ConfigurationNotFound = 'CONFIGURATION_NOT_FOUND',
}

const rows: Record<WebhookDispatcherExceptionCode, ApiErrorRow> = {
  [WebhookDispatcherExceptionCode.WebhookNotFound]: ApiErrorRow.NotFound,
  [WebhookDispatcherExceptionCode.DeliveryNotFound]: ApiErrorRow.NotFound,
  [WebhookDispatcherExceptionCode.InvalidWebhook]: ApiErrorRow.InvalidInput,
  [WebhookDispatcherExceptionCode.ConfigurationNotFound]: ApiErrorRow.InvalidInput,
};

export class WebhookDispatcherException extends DomainException<WebhookDispatcherExceptionCode> {
  constructor(code: WebhookDispatcherExceptionCode, description: string) {
    super(code, rows, description);
  }
}
