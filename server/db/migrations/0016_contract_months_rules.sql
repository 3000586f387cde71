-- A contract's money month by month (contract_months), kept by the database like the contract's
-- figures: contract_months_refresh recomputes the rows of some contracts from their payments and
-- writes only what changed. The contract's AFTER UPDATE trigger calls it, and every write of a
-- payment updates its contract (old and new), so the rows move in the same statement, under the
-- contract's row lock. A new contract has no payments, hence no rows.
--   paid: what came in for the month, as the analytics count it: MONTHLY payments for it, and
--         REGISTER payments in the contract's start month (extra charges are not dues). Only
--         for months the contract covers (payments for others are refused anyway), so a month's
--         paid rows all belong to contracts running in that month;
--   income_w / income_wo: every payment made in the month (paid_on), with and without a receipt.
CREATE FUNCTION contract_months_refresh(t integer, ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH fresh AS (
    SELECT p.contract_id, x.month, sum(x.paid) AS paid, sum(x.income_w) AS income_w, sum(x.income_wo) AS income_wo
    FROM payments p
    JOIN contracts c ON c.tenant_id = p.tenant_id AND c.id = p.contract_id
    CROSS JOIN LATERAL (VALUES
      (CASE WHEN p.kind = 'REGISTER' THEN to_char(c.start_date, 'YYYY-MM')
            WHEN p.kind = 'MONTHLY' AND p.month BETWEEN to_char(c.start_date, 'YYYY-MM') AND to_char(c.end_date, 'YYYY-MM') THEN p.month END,
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
CREATE FUNCTION contract_months_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM contract_months_refresh(NEW.tenant_id, ARRAY[NEW.id]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER contracts_months AFTER UPDATE ON contracts FOR EACH ROW EXECUTE FUNCTION contract_months_keep();
--> statement-breakpoint
-- The months of the contracts already there, centre by centre (row-level security may apply to
-- the migrating role: each centre is read as itself).
DO $$
DECLARE
  t integer;
BEGIN
  FOR t IN SELECT id FROM tenants LOOP
    PERFORM set_config('app.tenant_id', t::text, true);
    PERFORM contract_months_refresh(t, ARRAY(SELECT c.id FROM contracts c WHERE c.tenant_id = t));
  END LOOP;
  PERFORM set_config('app.tenant_id', '', true);
END $$;
