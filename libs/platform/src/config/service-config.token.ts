/** Injection token of the validated {@link ServiceConfig} of the running process. */
export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');
