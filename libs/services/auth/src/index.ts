export * from './auth.module';
export * from './auth.schema';
export * from './tokens/auth-service.config';
export { ApiKeysService, CreatedApiKey, NewApiKey } from './api-keys/api-keys.service';
export { UsersService } from './users/users.service';
export { CompaniesService, NewCompany } from './companies/companies.service';
/** For bench/auth, which serves the same handler without the request pipeline. */
export { CompaniesController } from './companies/companies.controller';
export { createAuthAdmin } from './admin/auth-admin';
