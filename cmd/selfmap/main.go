// Command selfmap is the whole service in one binary:
//
//	selfmap serve     migrate, then serve HTTP on ADDR until SIGTERM
//	selfmap migrate   apply the database migrations and exit
//	selfmap seed      load the demo data set (--if-empty: only into an empty database)
//	selfmap admin     grant or revoke the back office: admin grant|revoke EMAIL
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"selfmap/internal/config"
)

func main() {
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	cfg, err := config.FromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, "selfmap: configuration:", err)
		os.Exit(2)
	}
	logger := newLogger(cfg)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	cmd, args := os.Args[1], os.Args[2:]
	switch cmd {
	case "serve":
		err = serve(ctx, cfg, logger)
	case "migrate":
		err = migrate(ctx, cfg, logger)
	case "seed":
		fs := flag.NewFlagSet("seed", flag.ExitOnError)
		ifEmpty := fs.Bool("if-empty", false, "seed only a database without sites")
		fs.Parse(args) //nolint:errcheck // ExitOnError
		err = seed(ctx, cfg, logger, *ifEmpty)
	case "admin":
		err = admin(ctx, cfg, logger, args)
	case "help", "-h", "--help":
		usage()
		return
	default:
		fmt.Fprintf(os.Stderr, "selfmap: unknown command %q\n", cmd)
		usage()
		os.Exit(2)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		logger.Error("selfmap: "+cmd+" failed", "err", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprint(os.Stderr, `usage: selfmap <command>

commands:
  serve            apply migrations, then serve HTTP on $ADDR (default :8080)
  migrate          apply the database migrations and exit
  seed [--if-empty] load the demo data set
  admin grant|revoke EMAIL  give or take back an account's access to the back office
`)
}

func newLogger(cfg config.Config) *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.LogLevel)); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	if cfg.Dev() {
		return slog.New(slog.NewTextHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewJSONHandler(os.Stderr, opts))
}
