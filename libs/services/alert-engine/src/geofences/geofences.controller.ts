import { Actions } from '@fleet/contracts';
import {
  ApiErrors,
  ApiPageOf,
  ApiSuccess,
  CurrentPrincipal,
  envelope,
  Page,
  PageQuery,
  Principal,
  RequiresAction,
  sliceOf,
} from '@fleet/platform';
import { Body, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiOperation } from '@nestjs/swagger';
import { AlertAccess } from '../common/alert-access';
import { AlertManagementRoutes } from '../common/route-groups';
import { CompanyParam, GeofenceParams } from '../common/route-inputs';
import { GeofenceItem, toGeofenceItem } from './dto/geofence.dto';
import { GeofenceChangeBody, NewGeofenceBody } from './dto/geofence-body';
import { GeofencesService } from './geofences.service';

/** Extension: a company's geofences, which its geofence configurations (types 1 and 2) watch. */
@AlertManagementRoutes()
export class GeofencesController {
  constructor(
    private readonly access: AlertAccess,
    private readonly geofences: GeofencesService,
  ) {}

  @Get('geofences')
  // Reading takes what reading alerts takes; only changes need `alerts:write`.
  @RequiresAction(Actions.readAlerts)
  @ApiOperation({ operationId: 'Geofences_list', summary: 'Extension: geofences of a company, by id' })
  @ApiPageOf(GeofenceItem)
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: CompanyParam,
    @Query() query: PageQuery,
  ): Promise<Page<GeofenceItem>> {
    const companyId = this.access.reachableCompany(principal, id);
    const { rows, total } = await this.geofences.list(companyId, sliceOf(query));
    return envelope(rows.map(toGeofenceItem), total, query);
  }

  @Post('geofences')
  @ApiOperation({
    operationId: 'Geofences_create',
    summary: 'Extension: create a geofence, a circle or a GeoJSON polygon',
  })
  @ApiBody({ type: NewGeofenceBody })
  @ApiSuccess(GeofenceItem, 'The geofence as stored', { status: 201 })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: CompanyParam,
    @Body() body: NewGeofenceBody,
  ): Promise<GeofenceItem> {
    const companyId = this.access.reachableCompany(principal, id);
    return toGeofenceItem(await this.geofences.create(companyId, body));
  }

  @Put('geofences/:geofenceId')
  @ApiOperation({
    operationId: 'Geofences_update',
    summary: 'Extension: rename a geofence or give it another shape; fields left out keep their value',
  })
  @ApiBody({ type: GeofenceChangeBody })
  @ApiSuccess(GeofenceItem, 'The geofence as stored')
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param() { id, geofenceId }: GeofenceParams,
    @Body() body: GeofenceChangeBody,
  ): Promise<GeofenceItem> {
    const companyId = this.access.reachableCompany(principal, id);
    return toGeofenceItem(await this.geofences.update(companyId, geofenceId, body));
  }

  @Delete('geofences/:geofenceId')
  @ApiOperation({
    operationId: 'Geofences_delete',
    summary: 'Extension: delete a geofence that no alert configuration watches',
    description: 'A geofence still named by a configuration (active or not) answers 409 naming them.',
  })
  @ApiSuccess(GeofenceItem, 'The geofence as it was when deleted')
  @ApiErrors(409)
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param() { id, geofenceId }: GeofenceParams,
  ): Promise<GeofenceItem> {
    const companyId = this.access.reachableCompany(principal, id);
    return toGeofenceItem(await this.geofences.delete(companyId, geofenceId));
  }
}
