import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lists page on the global position of the creating event (monotonic, unlike a timestamp that
 * a slower transaction may commit out of order). Existing rows have no such value, so the read
 * model is emptied and its checkpoint reset: the runner rebuilds it from the events at start.
 */
export class PartnerListCreatedPosition1764000000001 implements MigrationInterface {
  name = 'PartnerListCreatedPosition1764000000001';

  async up(db: QueryRunner): Promise<void> {
    await db.query('truncate partner_list');
    await db.query("delete from projection_checkpoints where name = 'partner-list'");
    await db.query('alter table partner_list add column created_position bigint not null');
    await db.query('create unique index partner_list_created_position on partner_list (created_position)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('drop index partner_list_created_position');
    await db.query('alter table partner_list drop column created_position');
  }
}
