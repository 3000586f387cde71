-- A contract's figures (docs/rules.md, Contracts), kept on its row by the database so that lists filter and sort
-- on plain indexed columns: every insert or update of a contract recomputes them from its terms
-- and its payments, and every write of a payment touches its contract (old and new) so the
-- figures move in the same statement. The client and tests use domain/money.ts, the reference.
CREATE FUNCTION contract_figures() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  months text[];
BEGIN
  SELECT coalesce(array_agg(to_char(m, 'YYYY-MM') ORDER BY m), '{}')
    INTO months
    FROM generate_series(date_trunc('month', NEW.start_date::timestamp), NEW.end_date::timestamp, interval '1 month') m;
  NEW.month_count := cardinality(months);
  SELECT coalesce(sum(p.amount) FILTER (WHERE p.kind = 'REGISTER'), 0),
         coalesce(sum(p.amount) FILTER (WHERE p.kind = 'EXTRA'), 0),
         coalesce(sum(p.amount), 0)
    INTO NEW.register_paid, NEW.extra_total, NEW.total_paid
    FROM payments p
    WHERE p.tenant_id = NEW.tenant_id AND p.contract_id = NEW.id;
  NEW.total_cost := NEW.register_cost + NEW.month_cost::bigint * NEW.month_count + NEW.extra_total;
  NEW.rest := NEW.total_cost - NEW.total_paid;
  NEW.is_register_paid := NEW.register_paid >= NEW.register_cost;
  SELECT coalesce(array_agg(m ORDER BY m), '{}')
    INTO NEW.unpaid_months
    FROM unnest(months) m
    WHERE coalesce((SELECT sum(p.amount) FROM payments p
                    WHERE p.tenant_id = NEW.tenant_id AND p.contract_id = NEW.id AND p.kind = 'MONTHLY' AND p.month = m), 0) < NEW.month_cost;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER contracts_figures BEFORE INSERT OR UPDATE ON contracts FOR EACH ROW EXECUTE FUNCTION contract_figures();
--> statement-breakpoint
CREATE FUNCTION payments_touch_contract() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A no-op assignment: the contract's BEFORE UPDATE trigger does the counting.
  IF TG_OP <> 'INSERT' THEN
    UPDATE contracts SET month_count = month_count WHERE tenant_id = OLD.tenant_id AND id = OLD.contract_id;
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND (NEW.contract_id, NEW.tenant_id) IS DISTINCT FROM (OLD.contract_id, OLD.tenant_id)) THEN
    UPDATE contracts SET month_count = month_count WHERE tenant_id = NEW.tenant_id AND id = NEW.contract_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER payments_contract_figures AFTER INSERT OR UPDATE OR DELETE ON payments FOR EACH ROW EXECUTE FUNCTION payments_touch_contract();
