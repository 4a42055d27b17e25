import { Actions } from '@fleet/contracts';
import { utcOffsetOf } from '@fleet/formats';
import {
  ApiAuthenticated,
  ApiErrors,
  ApiSuccess,
  CurrentPrincipal,
  PageQuery,
  pageOf,
  Principal,
  Public,
  RateLimit,
  RequiresAction,
} from '@fleet/platform';
import { Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CompaniesService, CompanyInTree } from './companies.service';
import { CompanyListItem, CompanyListResponse, LegacyCompany } from './company-list';

/** Sub-companies first (shallowest first, then by id), the token's own company last. */
function listOrder(a: CompanyInTree, b: CompanyInTree): number {
  const ownA = a.level === 0 ? 1 : 0;
  const ownB = b.level === 0 ? 1 : 0;
  return ownA - ownB || a.level - b.level || a.id - b.id;
}

/** Body of the anonymous V1 connectivity check. */
class TestResponse {
  @ApiProperty({ enum: ['OK'] })
  Status!: 'OK';
}

@Controller()
@ApiTags('Companies')
export class CompaniesController {
  constructor(private readonly companies: CompaniesService) {}

  @Get('/v2/api/companies')
  @RequiresAction(Actions.readCompanies)
  @ApiOperation({ summary: 'Companies the token reaches: sub-companies first, its own company last' })
  @ApiAuthenticated()
  @ApiSuccess(CompanyListResponse)
  @ApiErrors(422)
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: PageQuery,
  ): Promise<CompanyListResponse> {
    const tree = await this.listedCompanies(principal);
    const own = tree.find((company) => company.level === 0);
    const items: CompanyListItem[] = tree.map((company) => ({
      id: company.id,
      name: company.name,
      parentId: company.level === 0 ? null : company.parentId,
      showCommands: company.showCommands,
      level: company.level,
      apiKey: null,
    }));
    const timeZone = own?.timeZone ?? principal.timeZone;
    return {
      ...pageOf(items, query),
      dateTimeFormat: own?.dateTimeFormat ?? 'dd/MM/yyyy HH:mm:ss',
      timezone: timeZone,
      utcOffset: utcOffsetOf(timeZone),
    };
  }

  @Post('/api/GetCompanies')
  @HttpCode(200)
  @RequiresAction(Actions.readCompanies)
  @ApiOperation({ summary: 'V1: companies the token reaches, in the V2 order' })
  @ApiAuthenticated({ legacy: true })
  @ApiSuccess([LegacyCompany])
  async legacyList(@CurrentPrincipal() principal: Principal): Promise<LegacyCompany[]> {
    const tree = await this.listedCompanies(principal);
    return tree.map((company) => ({
      Id: company.id,
      Name: company.name,
      ParentId: company.level === 0 ? null : company.parentId,
      Level: company.level,
      ShowCommands: company.showCommands,
      TimeZone: company.timeZone,
    }));
  }

  /** The companies a token may list, in the order both interfaces show them. */
  private async listedCompanies(principal: Principal): Promise<CompanyInTree[]> {
    return (await this.companies.subtree(principal.companyId)).sort(listOrder);
  }

  /** Anonymous connectivity check of the V1 interface. */
  @Post('/api/Test')
  @HttpCode(200)
  @Public()
  @RateLimit(false)
  @ApiOperation({ summary: 'V1: anonymous connectivity check' })
  @ApiOkResponse({ type: TestResponse })
  test(): { Status: 'OK' } {
    return { Status: 'OK' };
  }
}
