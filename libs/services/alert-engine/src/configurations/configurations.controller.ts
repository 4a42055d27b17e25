import { ApiPageOf, CurrentPrincipal, envelope, Page, PageQuery, Principal, sliceOf } from '@fleet/platform';
import { Get, Param, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AlertAccess } from '../common/alert-access';
import { CompanyAlertRoutes } from '../common/route-groups';
import { CompanyParam } from '../common/route-inputs';
import { AlertConfigurationsService } from './alert-configurations.service';
import { AlertConfigurationItem, toAlertConfigurationItem } from './dto/alert-configuration.dto';

/** V2 (spec): the alert configurations of a company. */
@CompanyAlertRoutes()
export class ConfigurationsController {
  constructor(
    private readonly access: AlertAccess,
    private readonly configurations: AlertConfigurationsService,
  ) {}

  @Get('alerts')
  @ApiOperation({
    operationId: 'Alerts_configurations',
    summary: 'Alert configurations of a company, by id',
  })
  @ApiPageOf(AlertConfigurationItem)
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: CompanyParam,
    @Query() query: PageQuery,
  ): Promise<Page<AlertConfigurationItem>> {
    const companyId = this.access.reachableCompany(principal, id);
    const { rows, total } = await this.configurations.list(companyId, sliceOf(query));
    return envelope(rows.map(toAlertConfigurationItem), total, query);
  }
}
