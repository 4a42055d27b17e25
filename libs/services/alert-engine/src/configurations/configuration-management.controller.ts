import { ApiSuccess, CurrentPrincipal, Principal } from '@fleet/platform';
import { Body, Delete, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOperation } from '@nestjs/swagger';
import { AlertAccess } from '../common/alert-access';
import { AlertManagementRoutes } from '../common/route-groups';
import { CompanyParam, ConfigurationParams } from '../common/route-inputs';
import { AlertConfigurationsService } from './alert-configurations.service';
import { AlertConfigurationItem, toAlertConfigurationItem } from './dto/alert-configuration.dto';
import { AlertConfigurationChangeBody, NewAlertConfigurationBody } from './dto/configuration-body';

/** Extension: creating, changing and deleting a company's alert configurations (`alerts:write`). */
@AlertManagementRoutes()
export class ConfigurationManagementController {
  constructor(
    private readonly access: AlertAccess,
    private readonly configurations: AlertConfigurationsService,
  ) {}

  @Post('alerts')
  @ApiOperation({
    operationId: 'AlertManagement_createConfiguration',
    summary: 'Extension: create an alert configuration of the company',
    description:
      'A 422 names the field of every rule broken: the name, an unknown `alertTypeId`, a setting the type ' +
      'does not take or out of its bounds, a `settings.geofenceId` that is not a geofence of this company, ' +
      'a vehicle not mapped to it. Rules and defaults: docs/alerts.md.',
  })
  @ApiBody({ type: NewAlertConfigurationBody })
  @ApiSuccess(AlertConfigurationItem, 'The configuration as stored', { status: 201 })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: CompanyParam,
    @Body() body: NewAlertConfigurationBody,
  ): Promise<AlertConfigurationItem> {
    const companyId = this.access.reachableCompany(principal, id);
    this.access.checkListedVehicles(principal, companyId, body.vehicleIds);
    return toAlertConfigurationItem(await this.configurations.create(companyId, body));
  }

  @Put('alerts/:alertId')
  @ApiOperation({
    operationId: 'AlertManagement_updateConfiguration',
    summary: 'Extension: change an alert configuration; fields left out keep their value',
    description:
      '`settings`, when given, replaces the settings as a whole (defaults fill the rest); a new ' +
      '`alertTypeId` without `settings` starts from the defaults of the new type. Checked as on creation.',
  })
  @ApiBody({ type: AlertConfigurationChangeBody })
  @ApiSuccess(AlertConfigurationItem, 'The configuration as stored')
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param() { id, alertId }: ConfigurationParams,
    @Body() body: AlertConfigurationChangeBody,
  ): Promise<AlertConfigurationItem> {
    const companyId = this.access.reachableCompany(principal, id);
    this.access.checkListedVehicles(principal, companyId, body.vehicleIds);
    return toAlertConfigurationItem(await this.configurations.update(companyId, alertId, body));
  }

  @Delete('alerts/:alertId')
  @ApiOperation({
    operationId: 'AlertManagement_deleteConfiguration',
    summary: 'Extension: delete an alert configuration (it stops firing; its records stay)',
  })
  @ApiSuccess(AlertConfigurationItem, 'The configuration as it was when deleted')
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param() { id, alertId }: ConfigurationParams,
  ): Promise<AlertConfigurationItem> {
    const companyId = this.access.reachableCompany(principal, id);
    return toAlertConfigurationItem(await this.configurations.delete(companyId, alertId));
  }
}
