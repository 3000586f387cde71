-- A student's guardians are rows of their own now (moved there by the previous migration):
-- the old text fields go, and each student's search text no longer holds them.
ALTER TABLE "students" DROP COLUMN "guardian_name_sort";--> statement-breakpoint
ALTER TABLE "students" DROP COLUMN "guardian_name";--> statement-breakpoint
ALTER TABLE "students" DROP COLUMN "guardian_phone";--> statement-breakpoint
UPDATE students
SET search = regexp_replace(btrim(translate(lower(concat_ws(' ', first_name, last_name, email, phone, information)), 'αοιετσνηυρπκμλάέίόήύώωγδθχφβξζψς eaionrtslcudpmhgbfywkvxzjq-.0123456789@_ΆΈΉΊΌΎΏΐΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΪΫΰϊϋABCDEFGHIJKLMNOPQRSTUVWXYZÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞàáâãäåçèéêëìíîïñòóôõöùúûüýÿ', 'αοιετσνηυρπκμλαειοηυωωγδθχφβξζψσ eaionrtslcudpmhgbfywkvxzjq-.0123456789@_αεηιουωιαβγδεζηθικλμνξοπρστυφχψωιυυιυabcdefghijklmnopqrstuvwxyzaaaaaaæceeeeiiiiðnoooooøuuuuyþaaaaaaceeeeiiiinooooouuuuyy')), '\s+', ' ', 'g');
