CREATE TABLE "pro_search" (
	"user_id" text PRIMARY KEY NOT NULL,
	"text" text NOT NULL
);
--> statement-breakpoint
DROP INDEX "users_type_likes_idx";--> statement-breakpoint
DROP INDEX "users_type_fee_idx";--> statement-breakpoint
ALTER TABLE "pro_search" ADD CONSTRAINT "pro_search_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_type_rating_idx" ON "users" USING btree ("type",round("rating_sum"::numeric / nullif("review_count", 0), 1) nulls first,"review_count","created_at");--> statement-breakpoint
CREATE INDEX "users_type_likes_idx" ON "users" USING btree ("type","like_count","created_at");--> statement-breakpoint
CREATE INDEX "users_type_fee_idx" ON "users" USING btree ("type","lesson_fee","created_at" DESC NULLS FIRST);