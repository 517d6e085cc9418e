CREATE TABLE "media_objects" (
	"key_name" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "media_objects" ADD CONSTRAINT "media_objects_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_objects_owner_idx" ON "media_objects" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "users_type_likes_idx" ON "users" USING btree ("type","like_count");--> statement-breakpoint
CREATE INDEX "users_type_fee_idx" ON "users" USING btree ("type","lesson_fee");--> statement-breakpoint
CREATE INDEX "users_type_area_idx" ON "users" USING btree ("type","area","created_at");