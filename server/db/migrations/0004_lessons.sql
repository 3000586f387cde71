CREATE TABLE "calendar_feeds" (
	"tenant_id" integer NOT NULL,
	"teacher_id" integer NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_feeds_tenant_id_teacher_id_pk" PRIMARY KEY("tenant_id","teacher_id")
);
--> statement-breakpoint
CREATE TABLE "lesson_tag_links" (
	"tenant_id" integer NOT NULL,
	"lesson_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "lesson_tag_links_tenant_id_lesson_id_tag_id_pk" PRIMARY KEY("tenant_id","lesson_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "lessons" (
	"tenant_id" integer NOT NULL,
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "lessons_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"date" date NOT NULL,
	"start_time" time NOT NULL,
	"end_time" time NOT NULL,
	"teacher_id" integer,
	"subject_id" integer,
	"room_id" integer,
	"class_id" integer,
	"lesson_type_id" integer,
	"notes" text,
	"homework" text,
	"status" text DEFAULT 'NORMAL' NOT NULL,
	"kind" smallint DEFAULT 1 NOT NULL,
	"replaces_lesson_id" integer,
	"recurring_lesson_id" integer,
	"detached" boolean DEFAULT false NOT NULL,
	"search" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lessons_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "lessons_times_check" CHECK ("lessons"."end_time" > "lessons"."start_time"),
	CONSTRAINT "lessons_kind_check" CHECK ("lessons"."kind" in (1, 2, 3)),
	CONSTRAINT "lessons_status_check" CHECK ("lessons"."status" in ('NORMAL', 'TO_BE_REPLACED', 'REPLACED', 'CANCELED'))
);
--> statement-breakpoint
CREATE TABLE "recurring_lesson_tag_links" (
	"tenant_id" integer NOT NULL,
	"recurring_lesson_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "recurring_lesson_tag_links_tenant_id_recurring_lesson_id_tag_id_pk" PRIMARY KEY("tenant_id","recurring_lesson_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "recurring_lessons" (
	"tenant_id" integer NOT NULL,
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "recurring_lessons_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"start_time" time NOT NULL,
	"end_time" time NOT NULL,
	"teacher_id" integer,
	"subject_id" integer,
	"room_id" integer,
	"class_id" integer,
	"lesson_type_id" integer,
	"notes" text,
	"repeat" text NOT NULL,
	"repeat_every" integer,
	"weekdays" jsonb,
	"start_date" date NOT NULL,
	"end_type" text,
	"occurrences" integer,
	"until_date" date,
	"dates" jsonb,
	"search" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recurring_lessons_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "recurring_lessons_times_check" CHECK ("recurring_lessons"."end_time" > "recurring_lessons"."start_time")
);
--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_tenant_id_teacher_id_teachers_tenant_id_id_fk" FOREIGN KEY ("tenant_id","teacher_id") REFERENCES "public"."teachers"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_tag_links" ADD CONSTRAINT "lesson_tag_links_tenant_id_lesson_id_lessons_tenant_id_id_fk" FOREIGN KEY ("tenant_id","lesson_id") REFERENCES "public"."lessons"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_tag_links" ADD CONSTRAINT "lesson_tag_links_tenant_id_tag_id_lesson_tags_tenant_id_id_fk" FOREIGN KEY ("tenant_id","tag_id") REFERENCES "public"."lesson_tags"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lessons" ADD CONSTRAINT "lessons_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lessons" ADD CONSTRAINT "lessons_tenant_id_teacher_id_teachers_tenant_id_id_fk" FOREIGN KEY ("tenant_id","teacher_id") REFERENCES "public"."teachers"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lessons" ADD CONSTRAINT "lessons_tenant_id_subject_id_subjects_tenant_id_id_fk" FOREIGN KEY ("tenant_id","subject_id") REFERENCES "public"."subjects"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lessons" ADD CONSTRAINT "lessons_tenant_id_room_id_rooms_tenant_id_id_fk" FOREIGN KEY ("tenant_id","room_id") REFERENCES "public"."rooms"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lessons" ADD CONSTRAINT "lessons_tenant_id_class_id_classes_tenant_id_id_fk" FOREIGN KEY ("tenant_id","class_id") REFERENCES "public"."classes"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lessons" ADD CONSTRAINT "lessons_tenant_id_lesson_type_id_lesson_types_tenant_id_id_fk" FOREIGN KEY ("tenant_id","lesson_type_id") REFERENCES "public"."lesson_types"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lessons" ADD CONSTRAINT "lessons_recurring_lesson_fk" FOREIGN KEY ("tenant_id","recurring_lesson_id") REFERENCES "public"."recurring_lessons"("tenant_id","id") ON DELETE SET NULL ("recurring_lesson_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lessons" ADD CONSTRAINT "lessons_replaces_lesson_fk" FOREIGN KEY ("tenant_id","replaces_lesson_id") REFERENCES "public"."lessons"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_lesson_tag_links" ADD CONSTRAINT "recurring_lesson_tag_links_tenant_id_recurring_lesson_id_recurring_lessons_tenant_id_id_fk" FOREIGN KEY ("tenant_id","recurring_lesson_id") REFERENCES "public"."recurring_lessons"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_lesson_tag_links" ADD CONSTRAINT "recurring_lesson_tag_links_tenant_id_tag_id_lesson_tags_tenant_id_id_fk" FOREIGN KEY ("tenant_id","tag_id") REFERENCES "public"."lesson_tags"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_lessons" ADD CONSTRAINT "recurring_lessons_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_lessons" ADD CONSTRAINT "recurring_lessons_tenant_id_teacher_id_teachers_tenant_id_id_fk" FOREIGN KEY ("tenant_id","teacher_id") REFERENCES "public"."teachers"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_lessons" ADD CONSTRAINT "recurring_lessons_tenant_id_subject_id_subjects_tenant_id_id_fk" FOREIGN KEY ("tenant_id","subject_id") REFERENCES "public"."subjects"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_lessons" ADD CONSTRAINT "recurring_lessons_tenant_id_room_id_rooms_tenant_id_id_fk" FOREIGN KEY ("tenant_id","room_id") REFERENCES "public"."rooms"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_lessons" ADD CONSTRAINT "recurring_lessons_tenant_id_class_id_classes_tenant_id_id_fk" FOREIGN KEY ("tenant_id","class_id") REFERENCES "public"."classes"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_lessons" ADD CONSTRAINT "recurring_lessons_tenant_id_lesson_type_id_lesson_types_tenant_id_id_fk" FOREIGN KEY ("tenant_id","lesson_type_id") REFERENCES "public"."lesson_types"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_feeds_secret_key" ON "calendar_feeds" USING btree ("tenant_id","secret_hash");--> statement-breakpoint
CREATE INDEX "lesson_tag_links_tag_idx" ON "lesson_tag_links" USING btree ("tenant_id","tag_id");--> statement-breakpoint
CREATE INDEX "lessons_date_idx" ON "lessons" USING btree ("tenant_id","date","start_time");--> statement-breakpoint
CREATE INDEX "lessons_teacher_date_idx" ON "lessons" USING btree ("tenant_id","teacher_id","date");--> statement-breakpoint
CREATE INDEX "lessons_room_date_idx" ON "lessons" USING btree ("tenant_id","room_id","date");--> statement-breakpoint
CREATE INDEX "lessons_class_date_idx" ON "lessons" USING btree ("tenant_id","class_id","date");--> statement-breakpoint
CREATE INDEX "lessons_subject_idx" ON "lessons" USING btree ("tenant_id","subject_id");--> statement-breakpoint
CREATE INDEX "lessons_lesson_type_idx" ON "lessons" USING btree ("tenant_id","lesson_type_id");--> statement-breakpoint
CREATE INDEX "lessons_recurring_idx" ON "lessons" USING btree ("tenant_id","recurring_lesson_id","date");--> statement-breakpoint
CREATE INDEX "lessons_replaces_idx" ON "lessons" USING btree ("tenant_id","replaces_lesson_id");--> statement-breakpoint
CREATE INDEX "lessons_status_idx" ON "lessons" USING btree ("tenant_id","status","date");--> statement-breakpoint
CREATE INDEX "recurring_lesson_tag_links_tag_idx" ON "recurring_lesson_tag_links" USING btree ("tenant_id","tag_id");--> statement-breakpoint
CREATE INDEX "recurring_lessons_start_idx" ON "recurring_lessons" USING btree ("tenant_id","start_date");--> statement-breakpoint
CREATE INDEX "recurring_lessons_teacher_idx" ON "recurring_lessons" USING btree ("tenant_id","teacher_id");--> statement-breakpoint
CREATE INDEX "recurring_lessons_class_idx" ON "recurring_lessons" USING btree ("tenant_id","class_id");--> statement-breakpoint
CREATE INDEX "recurring_lessons_room_idx" ON "recurring_lessons" USING btree ("tenant_id","room_id");