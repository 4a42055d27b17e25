import { ArgumentsHost, Catch, RpcExceptionFilter } from '@nestjs/common';
import { Observable, throwError } from 'rxjs';

/**
 * Hands an event handler's error to the delivery loop as it was thrown. Nest's default filter for
 * microservices would replace every error that is not an RpcException with a bare "Internal server
 * error" object, and the loop could no longer tell a database that is away (retried without limit,
 * nothing dead-lettered) from a poison event (dead-lettered after bounded retries).
 */
@Catch()
export class EventErrorFilter implements RpcExceptionFilter<unknown> {
  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    return throwError(() => exception);
  }
}
