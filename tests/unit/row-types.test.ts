// Row types follow the declarations: a field's type, its nullability and the labels beside
// references come from domain/ alone. Checked by the typecheck (expectTypeOf), run by vitest.
import { describe, expectTypeOf, it } from 'vitest';
import type { ReferenceLabel, RowOf } from '../../domain/index';
import type { LESSONS, RECURRING_LESSONS, TENANTS, USERS } from '../../domain/index';

describe('RowOf', () => {
  it('types a user row from USERS, without its write-only password', () => {
    type User = RowOf<typeof USERS>;
    expectTypeOf<User['username']>().toEqualTypeOf<string>();
    expectTypeOf<User['role']>().toEqualTypeOf<'ADMIN' | 'SECRETARY' | 'TEACHER'>();
    expectTypeOf<User['status']>().toEqualTypeOf<'ACTIVE' | 'INACTIVE'>();
    expectTypeOf<User['email']>().toEqualTypeOf<string | null>();
    expectTypeOf<User['version']>().toEqualTypeOf<number>();
    expectTypeOf<User>().not.toHaveProperty('password');
  });

  it('types references with their labels and lists of ids', () => {
    type Lesson = RowOf<typeof LESSONS>;
    expectTypeOf<Lesson['teacher_id']>().toEqualTypeOf<number | null>();
    expectTypeOf<Lesson['teacher']>().toEqualTypeOf<ReferenceLabel | null>();
    expectTypeOf<Lesson['tag_ids']>().toEqualTypeOf<number[] | null>();
    expectTypeOf<Lesson['tags']>().toEqualTypeOf<ReferenceLabel[]>();
    expectTypeOf<Lesson['date']>().toEqualTypeOf<string>();
    expectTypeOf<RowOf<typeof RECURRING_LESSONS>['weekdays']>().toEqualTypeOf<number[] | null>();
    expectTypeOf<RowOf<typeof TENANTS>['language']>().toEqualTypeOf<'el' | 'en'>();
  });
});
