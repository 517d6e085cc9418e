CREATE TABLE "punchout_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"buyer" text NOT NULL,
	"buyer_cookie" text NOT NULL,
	"form_post_url" text NOT NULL,
	"user_ref" text NOT NULL,
	"user_name" text NOT NULL,
	"user_email" text,
	"ticket_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"redeemed_at" timestamp with time zone,
	"buyer_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_type_ck";--> statement-breakpoint
ALTER TABLE "punchout_sessions" ADD CONSTRAINT "punchout_sessions_buyer_user_id_users_id_fk" FOREIGN KEY ("buyer_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "punchout_ticket_uq" ON "punchout_sessions" USING btree ("ticket_hash");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_type_ck" CHECK ("users"."type" in ('pro','amature','admin','buyer'));