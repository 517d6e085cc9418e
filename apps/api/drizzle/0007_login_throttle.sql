CREATE TABLE "auth_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_sources" (
	"email" text NOT NULL,
	"ip" text NOT NULL,
	"last_success_at" timestamp with time zone NOT NULL,
	CONSTRAINT "login_sources_email_ip_pk" PRIMARY KEY("email","ip")
);
--> statement-breakpoint
DROP TABLE "login_failures" CASCADE;--> statement-breakpoint
CREATE INDEX "auth_attempts_key_idx" ON "auth_attempts" USING btree ("key","at");--> statement-breakpoint
CREATE INDEX "auth_attempts_at_idx" ON "auth_attempts" USING btree ("at");--> statement-breakpoint
CREATE INDEX "login_sources_last_success_idx" ON "login_sources" USING btree ("last_success_at");--> statement-breakpoint
ALTER TABLE "auth_codes" DROP COLUMN "attempts";