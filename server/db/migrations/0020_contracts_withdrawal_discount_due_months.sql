ALTER TABLE "contracts" ADD COLUMN "credit" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The centre's date: today in its time zone, or the date FRONTIS_TODAY pretends (the setting
-- frontis.today, given to every connection at start: tests and demonstrations). A month is due
-- from its first day, so what is "due" is read against this at query time, never stored.
CREATE FUNCTION centre_today(t integer) RETURNS date STABLE LANGUAGE sql AS $$
  SELECT coalesce(nullif(current_setting('frontis.today', true), '')::date,
                  (now() AT TIME ZONE coalesce((SELECT x.time_zone FROM tenants x WHERE x.id = t), 'Europe/Athens'))::date)
$$;
--> statement-breakpoint
CREATE FUNCTION centre_month(t integer) RETURNS text STABLE LANGUAGE sql AS $$
  SELECT to_char(centre_today(t), 'YYYY-MM')
$$;
--> statement-breakpoint
-- A month's fee: month_cost less discount_percent, rounded to the cent (half up).
CREATE FUNCTION contract_fee(month_cost integer, discount integer) RETURNS integer IMMUTABLE LANGUAGE sql AS $$
  SELECT round(month_cost::numeric * (100 - discount) / 100)::integer
$$;
--> statement-breakpoint
-- The last month a contract owes: its end month, or its withdrawal month when withdrawn.
CREATE FUNCTION contract_last_month(end_date date, status text, withdrawn_on date) RETURNS text IMMUTABLE LANGUAGE sql AS $$
  SELECT to_char(CASE WHEN status = 'WITHDRAWN' AND withdrawn_on IS NOT NULL THEN least(end_date, withdrawn_on) ELSE end_date END, 'YYYY-MM')
$$;
--> statement-breakpoint
-- The figures of docs/rules.md, Contracts, with discounts and withdrawals: a month's fee is
-- contract_fee(); a withdrawn contract owes up to its withdrawal month; MONTHLY payments for
-- later months are `credit` (to refund) and not counted against what it owes. unpaid_months
-- holds every month owed and not paid, future ones too: readers keep those up to centre_month().
-- The search text also holds the student's and the payer's search text (after a \x01), so `q`
-- finds a contract by their names.
CREATE OR REPLACE FUNCTION contract_figures() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  months text[];
  fee integer;
  last_month text;
BEGIN
  fee := contract_fee(NEW.month_cost, NEW.discount_percent);
  last_month := contract_last_month(NEW.end_date, NEW.status, NEW.withdrawn_on);
  SELECT coalesce(array_agg(to_char(m, 'YYYY-MM') ORDER BY m), '{}')
    INTO months
    FROM generate_series(date_trunc('month', NEW.start_date::timestamp), NEW.end_date::timestamp, interval '1 month') m
    WHERE to_char(m, 'YYYY-MM') <= last_month;
  NEW.month_count := cardinality(months);
  SELECT coalesce(sum(p.amount) FILTER (WHERE p.kind = 'REGISTER'), 0),
         coalesce(sum(p.amount) FILTER (WHERE p.kind = 'EXTRA'), 0),
         coalesce(sum(p.amount), 0),
         coalesce(sum(p.amount) FILTER (WHERE p.kind = 'MONTHLY' AND p.month > last_month), 0)
    INTO NEW.register_paid, NEW.extra_total, NEW.total_paid, NEW.credit
    FROM payments p
    WHERE p.tenant_id = NEW.tenant_id AND p.contract_id = NEW.id;
  NEW.total_cost := NEW.register_cost + fee::bigint * NEW.month_count + NEW.extra_total;
  NEW.rest := NEW.total_cost - (NEW.total_paid - NEW.credit);
  NEW.is_register_paid := NEW.register_paid >= NEW.register_cost;
  SELECT coalesce(array_agg(m ORDER BY m), '{}')
    INTO NEW.unpaid_months
    FROM unnest(months) m
    WHERE coalesce((SELECT sum(p.amount) FROM payments p
                    WHERE p.tenant_id = NEW.tenant_id AND p.contract_id = NEW.id AND p.kind = 'MONTHLY' AND p.month = m), 0) < fee;
  NEW.search := trim(split_part(NEW.search, E'\x01', 1)) || E'\x01'
    || coalesce((SELECT s.search FROM students s WHERE s.tenant_id = NEW.tenant_id AND s.id = NEW.student_id), '') || ' '
    || coalesce((SELECT g.search FROM guardians g WHERE g.tenant_id = NEW.tenant_id AND g.id = NEW.payer_guardian_id), '');
  RETURN NEW;
END $$;
--> statement-breakpoint
-- contract_months as before, the months after a withdrawal left out of `paid` (they are credit).
CREATE OR REPLACE FUNCTION contract_months_refresh(t integer, ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH fresh AS (
    SELECT p.contract_id, x.month, sum(x.paid) AS paid, sum(x.income_w) AS income_w, sum(x.income_wo) AS income_wo
    FROM payments p
    JOIN contracts c ON c.tenant_id = p.tenant_id AND c.id = p.contract_id
    CROSS JOIN LATERAL (VALUES
      (CASE WHEN p.kind = 'REGISTER' THEN to_char(c.start_date, 'YYYY-MM')
            WHEN p.kind = 'MONTHLY' AND p.month BETWEEN to_char(c.start_date, 'YYYY-MM') AND contract_last_month(c.end_date, c.status, c.withdrawn_on) THEN p.month END,
        p.amount, 0, 0),
      (to_char(p.paid_on, 'YYYY-MM'), 0, CASE WHEN p.bill_number IS NOT NULL THEN p.amount ELSE 0 END,
        CASE WHEN p.bill_number IS NULL THEN p.amount ELSE 0 END)
    ) x(month, paid, income_w, income_wo)
    WHERE p.tenant_id = t AND p.contract_id = ANY (ids) AND x.month IS NOT NULL
    GROUP BY p.contract_id, x.month
  ),
  gone AS (
    DELETE FROM contract_months cm
    WHERE cm.tenant_id = t AND cm.contract_id = ANY (ids)
      AND NOT EXISTS (SELECT 1 FROM fresh f WHERE f.contract_id = cm.contract_id AND f.month = cm.month)
  )
  INSERT INTO contract_months AS cm (tenant_id, contract_id, month, paid, income_w, income_wo)
  SELECT t, f.contract_id, f.month, f.paid, f.income_w, f.income_wo FROM fresh f
  ON CONFLICT (tenant_id, contract_id, month) DO UPDATE
    SET paid = excluded.paid, income_w = excluded.income_w, income_wo = excluded.income_wo
    WHERE (cm.paid, cm.income_w, cm.income_wo) IS DISTINCT FROM (excluded.paid, excluded.income_w, excluded.income_wo);
END $$;
--> statement-breakpoint
-- A student's or a payer's new name reaches the search text of their contracts.
CREATE FUNCTION contracts_follow_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.search IS DISTINCT FROM OLD.search THEN
    IF TG_TABLE_NAME = 'students' THEN
      UPDATE contracts SET month_count = month_count WHERE tenant_id = NEW.tenant_id AND student_id = NEW.id;
    ELSE
      UPDATE contracts SET month_count = month_count WHERE tenant_id = NEW.tenant_id AND payer_guardian_id = NEW.id;
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER students_contract_search AFTER UPDATE OF search ON students FOR EACH ROW EXECUTE FUNCTION contracts_follow_names();
--> statement-breakpoint
CREATE TRIGGER guardians_contract_search AFTER UPDATE OF search ON guardians FOR EACH ROW EXECUTE FUNCTION contracts_follow_names();
--> statement-breakpoint
-- The contracts already there, centre by centre (row-level security may apply to the migrating role).
DO $$
DECLARE
  t integer;
BEGIN
  FOR t IN SELECT id FROM tenants LOOP
    PERFORM set_config('app.tenant_id', t::text, true);
    UPDATE contracts SET month_count = month_count WHERE tenant_id = t;
  END LOOP;
  PERFORM set_config('app.tenant_id', '', true);
END $$;
--> statement-breakpoint
-- The reminders of a contract (the reminder job's "sent lately?" and ADMIN's list of them).
CREATE INDEX "outbox_reminder_contract_idx" ON "outbox" USING btree ("tenant_id", (params->>'contract_id'), "created_at") WHERE kind = 'reminder';
