import { Module } from '@nestjs/common';
import { CatalogController } from './catalog.controller';

/** Catalogs: merchant category codes and US states. */
@Module({ controllers: [CatalogController] })
export class ConfigurationModule {}
