-- contract_unpaid_months, kept by the database like the contract's figures: after a contract is
-- written (which every write of one of its payments does), its rows follow its unpaid months
-- and its figures (total_cost, total_paid, rest). A write that changes neither (a student's new
-- name in the contract's search text) touches nothing. The rows of the months still unpaid are
-- kept in place where only the figures moved; those of months now paid go.
CREATE FUNCTION contract_unpaid_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.tenant_id = OLD.tenant_id AND NEW.id = OLD.id
     AND NEW.unpaid_months IS NOT DISTINCT FROM OLD.unpaid_months
     AND (NEW.total_cost, NEW.total_paid, NEW.rest) IS NOT DISTINCT FROM (OLD.total_cost, OLD.total_paid, OLD.rest) THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM contract_unpaid_months u
    WHERE u.tenant_id = OLD.tenant_id AND u.month = ANY (OLD.unpaid_months) AND u.contract_id = OLD.id
      AND (TG_OP = 'DELETE' OR NEW.tenant_id <> OLD.tenant_id OR NEW.id <> OLD.id OR NOT (u.month = ANY (NEW.unpaid_months)));
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO contract_unpaid_months AS u (tenant_id, month, contract_id, total_cost, total_paid, rest)
    SELECT DISTINCT NEW.tenant_id, m, NEW.id, NEW.total_cost, NEW.total_paid, NEW.rest FROM unnest(NEW.unpaid_months) m
    ON CONFLICT (tenant_id, month, contract_id) DO UPDATE
      SET total_cost = excluded.total_cost, total_paid = excluded.total_paid, rest = excluded.rest
      WHERE (u.total_cost, u.total_paid, u.rest) IS DISTINCT FROM (excluded.total_cost, excluded.total_paid, excluded.rest);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER contracts_unpaid_months AFTER INSERT OR UPDATE OR DELETE ON contracts FOR EACH ROW EXECUTE FUNCTION contract_unpaid_keep();
--> statement-breakpoint
-- The contracts already there, centre by centre (row-level security may apply to the
-- migrating role: each centre is read as itself).
DO $$
DECLARE
  t integer;
BEGIN
  FOR t IN SELECT id FROM tenants LOOP
    PERFORM set_config('app.tenant_id', t::text, true);
    INSERT INTO contract_unpaid_months (tenant_id, month, contract_id, total_cost, total_paid, rest)
    SELECT DISTINCT c.tenant_id, m, c.id, c.total_cost, c.total_paid, c.rest
    FROM contracts c CROSS JOIN LATERAL unnest(c.unpaid_months) m WHERE c.tenant_id = t;
  END LOOP;
  PERFORM set_config('app.tenant_id', '', true);
END $$;
