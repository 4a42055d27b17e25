/**
 * The one error of authenticated routes that is not an ApiError: the spec fixes its body to
 * `{ code: "CompanySuspended", message }`, with no requestId and no docUrl.
 */
export class CompanySuspendedException extends Error {
  readonly status = 403;

  constructor(readonly companyName: string) {
    super(`The company "${companyName}", or a company above it, is suspended or not active.`);
    this.name = 'CompanySuspendedException';
  }

  body(): { code: 'CompanySuspended'; message: string } {
    return { code: 'CompanySuspended', message: this.message };
  }
}
