package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/fray-vtt/fray/internal/archive"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/store"
)

// campaignCmd runs `server campaign export ID FILE` and `server campaign
// import FILE -gm NAME`: one campaign moved to another server.
func campaignCmd(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	const use = "usage: server campaign export ID FILE | server campaign import FILE -gm NAME"
	switch {
	case len(args) >= 3 && args[0] == "export":
		return exportCampaign(ctx, args[1], args[2], args[3:], getenv, stdout)
	case len(args) >= 2 && args[0] == "import":
		return importCampaign(ctx, args[1], args[2:], getenv, stdout)
	}
	return fmt.Errorf("%s", use)
}

func exportCampaign(ctx context.Context, id, file string, rest []string, getenv func(string) string, stdout io.Writer) error {
	cfg, _, err := parseConfig("campaign export", rest, getenv, stdout)
	if err != nil {
		return err
	}
	return openStore(ctx, cfg, stdout, func(db *store.DB) error {
		a, err := db.ExportCampaign(ctx, id)
		if err != nil {
			return err
		}
		dir, base := filepath.Split(file)
		if dir == "" {
			dir = "."
		}
		f, err := os.CreateTemp(dir, "."+base+".partial-*")
		if err != nil {
			return err
		}
		defer os.Remove(f.Name())
		bw := bufio.NewWriterSize(f, 1<<20)
		err = archive.Write(bw, a, store.LatestSchema())
		if err == nil {
			err = bw.Flush()
		}
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(f.Name(), file)
		}
		if err != nil {
			return err
		}
		events := 0
		for _, e := range a.Encounters {
			events += len(e.Events)
		}
		fmt.Fprintf(stdout, "wrote %s: campaign %q with %d encounters (%d events), %d characters, %d bestiary entries, %d drafts, %d pictures\n",
			file, a.Name, len(a.Encounters), events, len(a.Characters), len(a.Bestiary), len(a.Drafts), len(a.Assets))
		fmt.Fprintln(stdout, "It holds the encounters' dice secrets: keep it private. Import it on the other server with `server campaign import FILE -gm NAME`.")
		return nil
	})
}

func importCampaign(ctx context.Context, file string, rest []string, getenv func(string) string, stdout io.Writer) error {
	cfg, fs, err := parseConfig("campaign import", rest, getenv, stdout)
	if err != nil {
		return err
	}
	gm := fs.Lookup("gm").Value.String()
	if gm == "" {
		return fmt.Errorf("name the account that will run the imported campaign: -gm NAME (an account on this server)")
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	a, meta, err := archive.Read(ctx, f, st.Size(), rules.Registry())
	if err != nil {
		return err
	}
	return openStore(ctx, cfg, stdout, func(db *store.DB) error {
		u, err := db.UserByName(ctx, gm)
		if err != nil {
			return err
		}
		for i := range a.Webhooks {
			var b [32]byte
			if _, err := rand.Read(b[:]); err != nil {
				return err
			}
			a.Webhooks[i].Secret = hex.EncodeToString(b[:])
		}
		id, err := db.ImportCampaign(ctx, a, u.ID)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "imported %q (written %s) as campaign %s, run by %s: %d encounters, %d pictures\n",
			a.Name, meta.Created.Format("2006-01-02 15:04 MST"), id, u.Name, len(a.Encounters), len(a.Assets))
		for _, w := range a.Webhooks {
			fmt.Fprintf(stdout, "webhook %s (%s) has a new signing secret: %s\n", w.URL, w.Format, w.Secret)
		}
		fmt.Fprintln(stdout, "Invite the players again from the campaign page and give each their character.")
		return nil
	})
}
