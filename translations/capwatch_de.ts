<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>capwatch::session</name>
    <message>
        <source>A profile needs a name.</source>
        <translation>Ein Profil braucht einen Namen.</translation>
    </message>
    <message>
        <source>Another profile is already named “%1”.</source>
        <translation>Ein anderes Profil heißt bereits „%1“.</translation>
    </message>
    <message>
        <source>The profile&apos;s id “%1” is taken or not letters, digits, - and _.</source>
        <translation>Die ID „%1“ des Profils ist bereits vergeben oder besteht nicht nur aus Buchstaben, Ziffern, - und _.</translation>
    </message>
    <message>
        <source>The endpoint must be an http:// or https:// URL with a host.</source>
        <translation>Der Endpunkt muss eine http://- oder https://-URL mit einem Host sein.</translation>
    </message>
    <message>
        <source>A header cannot contain a line break.</source>
        <translation>Ein Header darf keinen Zeilenumbruch enthalten.</translation>
    </message>
    <message>
        <source>“%1” is not a header name.</source>
        <translation>„%1“ ist kein Header-Name.</translation>
    </message>
    <message>
        <source>capwatch sets the header %1 itself.</source>
        <translation>Den Header %1 setzt capwatch selbst.</translation>
    </message>
    <message>
        <source>A profile cannot fall back to itself.</source>
        <translation>Ein Profil kann nicht sein eigenes Ausweichprofil sein.</translation>
    </message>
    <message>
        <source>The fallback “%1” is not a profile.</source>
        <translation>Das Ausweichprofil „%1“ gibt es nicht.</translation>
    </message>
</context>
<context>
    <name>capwatch::session::ParkingTexts</name>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 tomorrow</source>
        <translation>%1 morgen</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 am %2</translation>
    </message>
    <message>
        <source>now</source>
        <translation>jetzt</translation>
    </message>
    <message>
        <source>in %1 s</source>
        <translation>in %1 s</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>in %1</translation>
    </message>
    <message>
        <source>Send at %1 (%2)</source>
        <translation>Senden um %1 (%2)</translation>
    </message>
    <message>
        <source>Parked until %1, in %2</source>
        <translation>Geparkt bis %1, in %2</translation>
    </message>
    <message>
        <source>park %1 of %2</source>
        <translation>Parkvorgang %1 von %2</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Sending at the reset · %1</source>
        <translation>Wird nach der Zurücksetzung gesendet · %1</translation>
    </message>
    <message>
        <source>Parked until %1 · in %2 · %3</source>
        <translation>Geparkt bis %1 · in %2 · %3</translation>
    </message>
    <message>
        <source>Not parked: the provider did not say when the limit resets</source>
        <translation>Nicht geparkt: Der Anbieter hat nicht angegeben, wann das Limit zurückgesetzt wird</translation>
    </message>
    <message>
        <source>Not parked: the limit resets in %1, more than %2 away</source>
        <translation>Nicht geparkt: Das Limit wird erst in %1 zurückgesetzt, das ist mehr als %2</translation>
    </message>
    <message numerus="yes">
        <source>Not parked again: it was parked %n times in a row already</source>
        <translation>
            <numerusform>Nicht erneut geparkt: Die Anfrage wurde bereits %n-mal hintereinander geparkt</numerusform>
            <numerusform>Nicht erneut geparkt: Die Anfrage wurde bereits %n-mal hintereinander geparkt</numerusform>
        </translation>
    </message>
    <message>
        <source>Due: waiting for the previous send to this provider</source>
        <translation>Fällig: wartet auf die vorherige Anfrage an diesen Anbieter</translation>
    </message>
    <message>
        <source>Waiting for the demo provider to be chosen again</source>
        <translation>Wartet darauf, dass der Demo-Anbieter wieder gewählt wird</translation>
    </message>
    <message>
        <source>Waiting for %1 to be chosen again</source>
        <translation>Wartet darauf, dass %1 wieder gewählt wird</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>wartet</translation>
    </message>
    <message>
        <source>due</source>
        <translation>fällig</translation>
    </message>
    <message>
        <source>sending</source>
        <translation>sendet</translation>
    </message>
    <message>
        <source>waits for provider</source>
        <translation>wartet auf Anbieter</translation>
    </message>
    <message>
        <source>Demo provider</source>
        <translation>Demo-Anbieter</translation>
    </message>
    <message>
        <source>waits for consent</source>
        <translation>wartet auf Zustimmung</translation>
    </message>
    <message>
        <source>Waiting for your consent to send the key unencrypted to %1</source>
        <translation>Wartet auf Ihre Zustimmung, den Schlüssel unverschlüsselt an %1 zu senden</translation>
    </message>
    <message>
        <source>1 send is parked: it goes out at the next start of capwatch.</source>
        <translation>1 Anfrage ist geparkt: Sie geht beim nächsten Start von capwatch hinaus.</translation>
    </message>
    <message>
        <source>1 send is parked: it goes out at the next start of capwatch, at %1 or later.</source>
        <translation>1 Anfrage ist geparkt: Sie geht beim nächsten Start von capwatch hinaus, um %1 oder später.</translation>
    </message>
    <message numerus="yes">
        <source>%n sends are parked: they go out at the next start of capwatch.</source>
        <translation>
            <numerusform>%n Anfragen sind geparkt: Sie gehen beim nächsten Start von capwatch hinaus.</numerusform>
            <numerusform>%n Anfragen sind geparkt: Sie gehen beim nächsten Start von capwatch hinaus.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sends are parked: they go out at the next start of capwatch, the first at %1 or later.</source>
        <translation>
            <numerusform>%n Anfragen sind geparkt: Sie gehen beim nächsten Start von capwatch hinaus, die erste um %1 oder später.</numerusform>
            <numerusform>%n Anfragen sind geparkt: Sie gehen beim nächsten Start von capwatch hinaus, die erste um %1 oder später.</numerusform>
        </translation>
    </message>
    <message>
        <source>1 send is in flight: quitting stops it; its prompt stays in the history.</source>
        <translation>1 Anfrage läuft noch: Beenden stoppt sie; ihr Prompt bleibt im Verlauf.</translation>
    </message>
    <message numerus="yes">
        <source>%n sends are in flight: quitting stops them; their prompts stay in the history.</source>
        <translation>
            <numerusform>%n Anfragen laufen noch: Beenden stoppt sie; ihre Prompts bleiben im Verlauf.</numerusform>
            <numerusform>%n Anfragen laufen noch: Beenden stoppt sie; ihre Prompts bleiben im Verlauf.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>capwatch::session::RetryTexts</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 h %2 min %3 s</source>
        <translation>%1 h %2 min %3 s</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>success</source>
        <translation>Erfolg</translation>
    </message>
    <message>
        <source>token limit</source>
        <translation>Token-Limit</translation>
    </message>
    <message>
        <source>rate limit</source>
        <translation>Ratenlimit</translation>
    </message>
    <message>
        <source>transient</source>
        <translation>temporär</translation>
    </message>
    <message>
        <source>auth</source>
        <translation>Anmeldung</translation>
    </message>
    <message>
        <source>request too large</source>
        <translation>Anfrage zu groß</translation>
    </message>
    <message>
        <source>out of credit</source>
        <translation>kein Guthaben</translation>
    </message>
    <message>
        <source>fatal</source>
        <translation>fatal</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>retry-after</source>
        <translation>retry-after</translation>
    </message>
    <message>
        <source>retry-after-ms</source>
        <translation>retry-after-ms</translation>
    </message>
    <message>
        <source>retry delay</source>
        <translation>Retry-Verzögerung</translation>
    </message>
    <message>
        <source>message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <source>rate-limit reset</source>
        <translation>Ratenlimit-Reset</translation>
    </message>
    <message>
        <source>backoff</source>
        <translation>Backoff</translation>
    </message>
    <message>
        <source>new key</source>
        <translation>neuer Schlüssel</translation>
    </message>
    <message>
        <source>retry-after header asked %1; capped to %2</source>
        <translation>retry-after-Header verlangte %1; begrenzt auf %2</translation>
    </message>
    <message>
        <source>retry-after header: %1</source>
        <translation>retry-after-Header: %1</translation>
    </message>
    <message>
        <source>retry-after-ms header asked %1; capped to %2</source>
        <translation>retry-after-ms-Header verlangte %1; begrenzt auf %2</translation>
    </message>
    <message>
        <source>retry-after-ms header: %1</source>
        <translation>retry-after-ms-Header: %1</translation>
    </message>
    <message>
        <source>provider asked %1; capped to %2</source>
        <translation>Anbieter verlangte %1; begrenzt auf %2</translation>
    </message>
    <message>
        <source>provider asked %1</source>
        <translation>Anbieter verlangte %1</translation>
    </message>
    <message>
        <source>retryDelay in the error asked %1; capped to %2</source>
        <translation>retryDelay im Fehler verlangte %1; begrenzt auf %2</translation>
    </message>
    <message>
        <source>retryDelay in the error: %1</source>
        <translation>retryDelay im Fehler: %1</translation>
    </message>
    <message>
        <source>rate-limit reset header asked %1; capped to %2</source>
        <translation>Ratenlimit-Reset-Header verlangte %1; begrenzt auf %2</translation>
    </message>
    <message>
        <source>rate-limit reset header: %1</source>
        <translation>Ratenlimit-Reset-Header: %1</translation>
    </message>
    <message>
        <source>backoff %1</source>
        <translation>Backoff %1</translation>
    </message>
    <message>
        <source>new key from the credential store: no wait</source>
        <translation>neuer Schlüssel aus dem Zugangsdatenspeicher: keine Wartezeit</translation>
    </message>
    <message>
        <source>%1 %2 of %3</source>
        <translation>%1 %2 von %3</translation>
    </message>
    <message>
        <source>%1 %2 → %3</source>
        <translation>%1 %2 → %3</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>budget exhausted</source>
        <translation>Budget erschöpft</translation>
    </message>
    <message>
        <source>attempts exhausted</source>
        <translation>Versuche erschöpft</translation>
    </message>
    <message>
        <source>not retryable</source>
        <translation>nicht wiederholbar</translation>
    </message>
    <message>
        <source>no response in time</source>
        <translation>keine Antwort rechtzeitig</translation>
    </message>
    <message>
        <source>key unchanged</source>
        <translation>Schlüssel unverändert</translation>
    </message>
    <message>
        <source>budget exhausted (the %1 s of waiting are used up)</source>
        <translation>Budget erschöpft (die %1 s Wartezeit sind aufgebraucht)</translation>
    </message>
    <message>
        <source>all %1 attempts failed</source>
        <translation>alle %1 Versuche sind fehlgeschlagen</translation>
    </message>
    <message>
        <source>the error is not one that waiting can fix</source>
        <translation>der Fehler lässt sich durch Warten nicht beheben</translation>
    </message>
    <message>
        <source>the provider did not answer in time</source>
        <translation>der Anbieter hat nicht rechtzeitig geantwortet</translation>
    </message>
    <message>
        <source>the key was rejected and no new key was found</source>
        <translation>der Schlüssel wurde abgelehnt und es wurde kein neuer gefunden</translation>
    </message>
    <message>
        <source>Attempt started</source>
        <translation>Versuch gestartet</translation>
    </message>
    <message>
        <source>Retry scheduled</source>
        <translation>Wiederholung geplant</translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation>Erfolgreich</translation>
    </message>
    <message>
        <source>Gave up</source>
        <translation>Aufgegeben</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>parked</source>
        <translation>geparkt</translation>
    </message>
    <message>
        <source>sent now</source>
        <translation>sofort gesendet</translation>
    </message>
    <message>
        <source>reset reached</source>
        <translation>Limit zurückgesetzt</translation>
    </message>
    <message>
        <source>parked · %1</source>
        <translation>geparkt · %1</translation>
    </message>
    <message>
        <source>parked until %1</source>
        <translation>geparkt bis %1</translation>
    </message>
    <message>
        <source>Parked</source>
        <translation>Geparkt</translation>
    </message>
    <message>
        <source>Unparked</source>
        <translation>Ausgeparkt</translation>
    </message>
    <message>
        <source>paced</source>
        <translation>gedrosselt</translation>
    </message>
    <message>
        <source>x-ratelimit-reset-tokens header: %1 (pacing, outside the retry budget)</source>
        <translation>x-ratelimit-reset-tokens-Header: %1 (Drosselung, außerhalb des Wiederholungsbudgets)</translation>
    </message>
    <message>
        <source>x-ratelimit-reset-requests header: %1 (pacing, outside the retry budget)</source>
        <translation>x-ratelimit-reset-requests-Header: %1 (Drosselung, außerhalb des Wiederholungsbudgets)</translation>
    </message>
    <message>
        <source>paced %1 of %2</source>
        <translation>%1 von %2 gedrosselt</translation>
    </message>
    <message>
        <source>paced %1</source>
        <translation>%1 gedrosselt</translation>
    </message>
    <message>
        <source>Paced</source>
        <translation>Gedrosselt</translation>
    </message>
    <message>
        <source>Fallback</source>
        <translation>Ausweichprofil</translation>
    </message>
    <message>
        <source>this profile does not retry token limits</source>
        <translation>dieses Profil wiederholt bei Token-Limits nicht</translation>
    </message>
    <message>
        <source>this profile does not retry rate limits</source>
        <translation>dieses Profil wiederholt bei Ratenlimits nicht</translation>
    </message>
    <message>
        <source>Interrupted</source>
        <translation>Unterbrochen</translation>
    </message>
    <message>
        <source>declared limit</source>
        <translation>hinterlegtes Limit</translation>
    </message>
    <message>
        <source>the profile&apos;s declared limit: %1</source>
        <translation>im Profil hinterlegtes Limit: %1</translation>
    </message>
</context>
<context>
    <name>capwatch::session::SendTexts</name>
    <message>
        <source>?</source>
        <translation>?</translation>
    </message>
    <message>
        <source>Ready. Retries of your next send show here.</source>
        <translation>Bereit. Wiederholungen Ihrer nächsten Anfrage erscheinen hier.</translation>
    </message>
    <message>
        <source>Retrying: sending attempt %1…</source>
        <translation>Wiederholung: Versuch %1 wird gesendet…</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>Wird gesendet…</translation>
    </message>
    <message>
        <source>Waiting to send attempt %1</source>
        <translation>Warten auf Versuch %1</translation>
    </message>
    <message>
        <source>Answer streaming in</source>
        <translation>Antwort wird empfangen</translation>
    </message>
    <message>
        <source>Answered</source>
        <translation>Beantwortet</translation>
    </message>
    <message>
        <source>Answered after 1 retry</source>
        <translation>Nach 1 Wiederholung beantwortet</translation>
    </message>
    <message>
        <source>Answered after %1 retries</source>
        <translation>Nach %1 Wiederholungen beantwortet</translation>
    </message>
    <message>
        <source>Gave up: %1</source>
        <translation>Aufgegeben: %1</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>Attempt %1 of %2</source>
        <translation>Versuch %1 von %2</translation>
    </message>
    <message>
        <source>%1 (HTTP %2)</source>
        <translation>%1 (HTTP %2)</translation>
    </message>
    <message>
        <source>%1 used by the answer</source>
        <translation>%1 von der Antwort verbraucht</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 s of %2 s</source>
        <translation>%1 s von %2 s</translation>
    </message>
    <message>
        <source>%1; cancelled after %2</source>
        <translation>%1; abgebrochen nach %2</translation>
    </message>
    <message>
        <source>Pacing: sending in %1 s (the provider&apos;s window is full)</source>
        <translation>Drosselung: Senden in %1 s (das Kontingentfenster des Anbieters ist ausgeschöpft)</translation>
    </message>
    <message>
        <source>Pacing: sending in %1 s (the provider&apos;s request limit is reached)</source>
        <translation>Drosselung: Senden in %1 s (das Anfragelimit des Anbieters ist erreicht)</translation>
    </message>
    <message>
        <source>Waiting for the provider…</source>
        <translation>Warten auf den Anbieter…</translation>
    </message>
    <message numerus="yes">
        <source>Retrying in %n s</source>
        <translation>
            <numerusform>Neuer Versuch in %n s</numerusform>
            <numerusform>Neuer Versuch in %n s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Retrying in %n s: %1</source>
        <translation>
            <numerusform>Neuer Versuch in %n s: %1</numerusform>
            <numerusform>Neuer Versuch in %n s: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · retry in %2</source>
        <translation>%1 · neuer Versuch in %2</translation>
    </message>
    <message>
        <source>attempt %1 of %2 failed: </source>
        <translation>Versuch %1 von %2 fehlgeschlagen: </translation>
    </message>
    <message>
        <source> (used %1, limit %2)</source>
        <translation> (verbraucht %1, Limit %2)</translation>
    </message>
    <message>
        <source>waiting %1 (%2) before attempt %3 of %4; %5 of the %6 budget left</source>
        <translation>warte %1 (%2) vor Versuch %3 von %4; %5 des Budgets von %6 übrig</translation>
    </message>
    <message>
        <source>answered on attempt %1 of %2</source>
        <translation>beantwortet bei Versuch %1 von %2</translation>
    </message>
    <message>
        <source> (%1 tokens)</source>
        <translation> (%1 Tokens)</translation>
    </message>
    <message>
        <source>Nothing from the provider for %1</source>
        <translation>Seit %1 nichts vom Anbieter</translation>
    </message>
    <message>
        <source>pacing</source>
        <translation>gedrosselt</translation>
    </message>
    <message>
        <source>sending</source>
        <translation>sendet</translation>
    </message>
    <message>
        <source>streaming</source>
        <translation>empfängt</translation>
    </message>
    <message>
        <source>silent</source>
        <translation>still</translation>
    </message>
    <message>
        <source>waiting to retry</source>
        <translation>wartet auf neuen Versuch</translation>
    </message>
    <message>
        <source>answered</source>
        <translation>beantwortet</translation>
    </message>
    <message>
        <source>gave up</source>
        <translation>aufgegeben</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Held for %1 s: the provider&apos;s token window is full, and capwatch sends when it has room so that the cap is never hit. Send now sends it anyway (and shows the retry cycle if the provider refuses).</source>
        <translation>Für %1 s zurückgehalten: Das Token-Fenster des Anbieters ist voll, und capwatch sendet, sobald wieder Platz ist, damit die Obergrenze nie erreicht wird. „Jetzt senden“ sendet trotzdem (und zeigt den Wiederholungszyklus, falls der Anbieter ablehnt).</translation>
    </message>
    <message>
        <source>Held for %1 s: the provider&apos;s request limit is reached, and capwatch sends when it has room so that the cap is never hit. Send now sends it anyway (and shows the retry cycle if the provider refuses).</source>
        <translation>Für %1 s zurückgehalten: Das Anfragelimit des Anbieters ist erreicht, und capwatch sendet, sobald wieder Platz ist, damit die Obergrenze nie erreicht wird. „Jetzt senden“ sendet trotzdem (und zeigt den Wiederholungszyklus, falls der Anbieter ablehnt).</translation>
    </message>
    <message>
        <source>%1; not waited: the send gave up</source>
        <translation>%1; nicht abgewartet: Die Anfrage wurde aufgegeben</translation>
    </message>
    <message>
        <source>The provider rejected the key: check the profile&apos;s key in Settings.</source>
        <translation>Der Anbieter hat den Schlüssel abgelehnt: Prüfen Sie den Schlüssel des Profils in den Einstellungen.</translation>
    </message>
    <message>
        <source>Out of credit at this provider: send it to %1, or top up the account.</source>
        <translation>Kein Guthaben mehr bei diesem Anbieter: An %1 senden oder das Konto aufladen.</translation>
    </message>
    <message>
        <source>Out of credit at this provider: top up the account, then retry.</source>
        <translation>Kein Guthaben mehr bei diesem Anbieter: Laden Sie das Konto auf und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>The request is larger than the model accepts: trim the conversation or shorten the prompt.</source>
        <translation>Die Anfrage ist größer, als das Modell annimmt: Kürzen Sie die Unterhaltung oder den Prompt.</translation>
    </message>
    <message>
        <source>Capped until %1: %2.</source>
        <translation>Limit erreicht bis %1: %2.</translation>
    </message>
    <message>
        <source>Rate-limited until %1: %2.</source>
        <translation>Ratenbegrenzt bis %1: %2.</translation>
    </message>
    <message>
        <source>Capped at this provider: %1.</source>
        <translation>Limit bei diesem Anbieter erreicht: %1.</translation>
    </message>
    <message>
        <source>Rate-limited at this provider: %1.</source>
        <translation>Ratenbegrenzt bei diesem Anbieter: %1.</translation>
    </message>
    <message>
        <source>The provider did not answer in time: try again later.</source>
        <translation>Der Anbieter hat nicht rechtzeitig geantwortet: Versuchen Sie es später erneut.</translation>
    </message>
    <message>
        <source>The provider could not be reached: %1.</source>
        <translation>Der Anbieter war nicht erreichbar: %1.</translation>
    </message>
    <message>
        <source>The provider is overloaded or failing: %1.</source>
        <translation>Der Anbieter ist überlastet oder gestört: %1.</translation>
    </message>
    <message>
        <source>The provider refused the request, and waiting will not change that: see Details.</source>
        <translation>Der Anbieter hat die Anfrage abgelehnt, und Warten ändert daran nichts: siehe Details.</translation>
    </message>
    <message>
        <source>The send failed.</source>
        <translation>Das Senden ist fehlgeschlagen.</translation>
    </message>
    <message>
        <source>The send failed: %1.</source>
        <translation>Das Senden ist fehlgeschlagen: %1.</translation>
    </message>
    <message>
        <source>The provider&apos;s cap resets at %1, later than the retries can reach: the retries go on unless you park it now, to be sent by itself at the reset.</source>
        <translation>Das Limit des Anbieters wird um %1 zurückgesetzt, später, als die Wiederholungen reichen: Sie laufen weiter, es sei denn, Sie parken die Anfrage jetzt; dann geht sie beim Zurücksetzen von selbst hinaus.</translation>
    </message>
    <message>
        <source>pacing: sending in %1 s, when the provider&apos;s window resets (it has %2 tokens left, this request needs about %3)</source>
        <translation>Drosselung: Senden in %1 s, wenn das Kontingentfenster des Anbieters zurückgesetzt wird (noch %2 Tokens übrig, diese Anfrage braucht etwa %3)</translation>
    </message>
    <message>
        <source>pacing: sending in %1 s, when the provider&apos;s request limit resets</source>
        <translation>Drosselung: Senden in %1 s, wenn das Anfragelimit des Anbieters zurückgesetzt wird</translation>
    </message>
    <message>
        <source>Decided by %1</source>
        <translation>Entschieden von %1</translation>
    </message>
    <message>
        <source>Cut off at the output limit · %1 tokens</source>
        <translation>Am Ausgabelimit abgeschnitten · %1 Tokens</translation>
    </message>
    <message>
        <source>Cut off at the output limit</source>
        <translation>Am Ausgabelimit abgeschnitten</translation>
    </message>
    <message>
        <source>The answer was interrupted after %1 characters: what came is kept, and Continue asks for the rest.</source>
        <translation>Die Antwort wurde nach %1 Zeichen unterbrochen: Was kam, bleibt erhalten, und „Fortsetzen“ fragt nach dem Rest.</translation>
    </message>
    <message>
        <source>answer interrupted</source>
        <translation>Antwort unterbrochen</translation>
    </message>
    <message>
        <source>Interrupted after %1 characters</source>
        <translation>Nach %1 Zeichen unterbrochen</translation>
    </message>
    <message>
        <source>Empty answer: the output budget (%1 tokens) went to reasoning</source>
        <translation>Leere Antwort: das Ausgabebudget (%1 Tokens) ging an das Nachdenken</translation>
    </message>
    <message>
        <source>Empty answer</source>
        <translation>Leere Antwort</translation>
    </message>
    <message>
        <source>the answer was cut off at the output limit (%1 tokens)</source>
        <translation>die Antwort wurde am Ausgabelimit abgeschnitten (%1 Tokens)</translation>
    </message>
    <message>
        <source>the answer was cut off at the output limit</source>
        <translation>die Antwort wurde am Ausgabelimit abgeschnitten</translation>
    </message>
    <message>
        <source>the answer was interrupted after %1 characters</source>
        <translation>die Antwort wurde nach %1 Zeichen unterbrochen</translation>
    </message>
    <message>
        <source>the answer is empty: its output budget (%1 tokens) went to reasoning</source>
        <translation>die Antwort ist leer: ihr Ausgabebudget (%1 Tokens) ging an das Nachdenken</translation>
    </message>
    <message>
        <source>the answer is empty</source>
        <translation>die Antwort ist leer</translation>
    </message>
    <message>
        <source>Pacing: sending in %1 s (%2)</source>
        <translation>Drosselung: Senden in %1 s (%2)</translation>
    </message>
    <message>
        <source>Requests this minute: %1 of %2</source>
        <translation>Anfragen in dieser Minute: %1 von %2</translation>
    </message>
    <message>
        <source>Tokens this minute: %1 of %2</source>
        <translation>Tokens in dieser Minute: %1 von %2</translation>
    </message>
    <message>
        <source>Requests today: %1 of %2</source>
        <translation>Anfragen heute: %1 von %2</translation>
    </message>
    <message>
        <source>Tokens today: %1 of %2</source>
        <translation>Tokens heute: %1 von %2</translation>
    </message>
    <message>
        <source>Requests in flight: %1 of %2</source>
        <translation>Laufende Anfragen: %1 von %2</translation>
    </message>
    <message>
        <source>%1 (%2 billed, %3 estimated)</source>
        <translation>%1 (%2 abgerechnet, %3 geschätzt)</translation>
    </message>
    <message>
        <source>%1 billed</source>
        <translation>%1 abgerechnet</translation>
    </message>
    <message>
        <source>%1 estimated</source>
        <translation>%1 geschätzt</translation>
    </message>
    <message>
        <source>Spent today: %1 of %2; this send may cost up to %3</source>
        <translation>Heute ausgegeben: %1 von %2; diese Anfrage kann bis zu %3 kosten</translation>
    </message>
    <message>
        <source>Spent this month: %1 of %2; this send may cost up to %3</source>
        <translation>Diesen Monat ausgegeben: %1 von %2; diese Anfrage kann bis zu %3 kosten</translation>
    </message>
    <message>
        <source>Tokens today: %1 of %2; this send may use up to %3</source>
        <translation>Tokens heute: %1 von %2; diese Anfrage kann bis zu %3 verbrauchen</translation>
    </message>
    <message>
        <source>Tokens this month: %1 of %2; this send may use up to %3</source>
        <translation>Tokens diesen Monat: %1 von %2; diese Anfrage kann bis zu %3 verbrauchen</translation>
    </message>
    <message>
        <source>Held for %1 s: %2, as this profile declares for its provider (Settings → Providers), and capwatch sends when it has room. Send now sends it anyway.</source>
        <translation>Für %1 s zurückgehalten: %2, wie in diesem Profil für seinen Anbieter hinterlegt (Einstellungen → Anbieter), und capwatch sendet, sobald wieder Platz ist. „Jetzt senden“ sendet trotzdem.</translation>
    </message>
    <message>
        <source>pacing: sending in %1 s (%2, the profile&apos;s declared limit)</source>
        <translation>Drosselung: Senden in %1 s (%2, im Profil hinterlegtes Limit)</translation>
    </message>
    <message>
        <source>Requests today: %1 of %2, resets at %3</source>
        <translation>Anfragen heute: %1 von %2, zurückgesetzt um %3</translation>
    </message>
    <message>
        <source>Tokens today: %1 of %2, resets at %3</source>
        <translation>Tokens heute: %1 von %2, zurückgesetzt um %3</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ChartsModule</name>
    <message>
        <source>The charts module (%1) is not installed.</source>
        <translation>Das Diagrammmodul (%1) ist nicht installiert.</translation>
    </message>
    <message>
        <source>The charts module %1 could not be loaded: %2</source>
        <translation>Das Diagrammmodul %1 konnte nicht geladen werden: %2</translation>
    </message>
    <message>
        <source>it is of another version</source>
        <translation>es stammt von einer anderen Version</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ChartsPlugin</name>
    <message>
        <source>This is not a chart.</source>
        <translation>Dies ist kein Diagramm.</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ContextGauge</name>
    <message>
        <source>Context: %1 of %2 tokens</source>
        <translation>Kontext: %1 von %2 Tokens</translation>
    </message>
    <message>
        <source>Context: %1 of %2 tokens: the next send does not fit</source>
        <translation>Kontext: %1 von %2 Tokens – die nächste Anfrage passt nicht mehr hinein</translation>
    </message>
    <message>
        <source>~%1 tokens (context window unknown)</source>
        <translation>~%1 Tokens (Kontextfenster unbekannt)</translation>
    </message>
    <message>
        <source>(the oldest turn left out)</source>
        <translation>(älteste Gesprächsrunde weggelassen)</translation>
    </message>
    <message numerus="yes">
        <source>(%n oldest turns left out)</source>
        <translation>
            <numerusform>(%n älteste Gesprächsrunde weggelassen)</numerusform>
            <numerusform>(%n älteste Gesprächsrunden weggelassen)</numerusform>
        </translation>
    </message>
    <message>
        <source>The estimated tokens of the next request: the system prompt, the turns sent, the prompt and the answer&apos;s maximum tokens</source>
        <translation>Geschätzte Tokens der nächsten Anfrage: Systemprompt, mitgesendete Gesprächsrunden, Prompt und maximale Tokens der Antwort</translation>
    </message>
    <message>
        <source>Trim…</source>
        <translation>Kürzen…</translation>
    </message>
    <message>
        <source>Leave out the oldest turns from requests so that the next send fits; they stay in the conversation</source>
        <translation>Die ältesten Gesprächsrunden nicht mehr mitsenden, damit die nächste Anfrage passt; in der Unterhaltung bleiben sie erhalten</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>Kontext</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ConversationController</name>
    <message>
        <source>Editing your last prompt: sending it replaces that prompt and its answer.</source>
        <translation>Sie bearbeiten Ihren letzten Prompt: Beim Senden ersetzt er diesen Prompt und seine Antwort.</translation>
    </message>
    <message>
        <source>No model is set for %1, so nothing was sent. Enter the model&apos;s name in the provider settings; your prompt stays in the editor.</source>
        <translation>Für %1 ist kein Modell festgelegt, daher wurde nichts gesendet. Geben Sie den Namen des Modells in den Anbietereinstellungen ein; Ihr Prompt bleibt im Eingabefeld.</translation>
    </message>
    <message>
        <source>No rules file was made: %1</source>
        <translation>Es wurde keine Regeldatei angelegt: %1</translation>
    </message>
    <message>
        <source>A rules file with this answer&apos;s text was made: %1. Put its words under the kind of failure they mean; capwatch reads it from its next start.</source>
        <translation>Eine Regeldatei mit dem Text dieser Antwort wurde angelegt: %1. Ordnen Sie die Wörter der Fehlerart zu, die sie bedeuten; capwatch liest die Datei beim nächsten Start.</translation>
    </message>
    <message>
        <source>Not sent: %1 The limit resets at %2.</source>
        <translation>Nicht gesendet: %1 Zurücksetzung des Limits: %2.</translation>
    </message>
    <message>
        <source>Parked until the limit resets at %1: %2.</source>
        <translation>Geparkt bis zur Zurücksetzung des Limits (%1): %2.</translation>
    </message>
    <message>
        <source>%1 requests a minute</source>
        <translation>%1 Anfragen pro Minute</translation>
    </message>
    <message>
        <source>%1 tokens a minute</source>
        <translation>%1 Tokens pro Minute</translation>
    </message>
    <message>
        <source>%1 requests a day</source>
        <translation>%1 Anfragen pro Tag</translation>
    </message>
    <message>
        <source>%1 tokens a day</source>
        <translation>%1 Tokens pro Tag</translation>
    </message>
    <message>
        <source>%1 requests at once</source>
        <translation>%1 gleichzeitige Anfragen</translation>
    </message>
    <message>
        <source>Kept: %1 for %2. Change it in Settings → Providers.</source>
        <translation>Übernommen: %1 für %2. Ändern lässt es sich unter Einstellungen → Anbieter.</translation>
    </message>
    <message>
        <source>%1 hit a rate limit and declares no limits; the provider&apos;s words suggest %2. Keep it, and capwatch paces sends before they are refused.</source>
        <translation>%1 ist an ein Ratenlimit gestoßen und hat keine Limits hinterlegt; die Meldung des Anbieters deutet auf %2 hin. Wenn Sie das übernehmen, drosselt capwatch Anfragen, bevor sie abgelehnt werden.</translation>
    </message>
    <message>
        <source>%1 hit a rate limit and declares no limits; the sends before it suggest %2. Keep it, and capwatch paces sends before they are refused.</source>
        <translation>%1 ist an ein Ratenlimit gestoßen und hat keine Limits hinterlegt; die Anfragen davor deuten auf %2 hin. Wenn Sie das übernehmen, drosselt capwatch Anfragen, bevor sie abgelehnt werden.</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ConversationListModel</name>
    <message>
        <source>had retries</source>
        <translation>mit Wiederholungen</translation>
    </message>
    <message>
        <source>unanswered send</source>
        <translation>unbeantwortete Anfrage</translation>
    </message>
    <message>
        <source>Untitled conversation</source>
        <translation>Unbenannte Unterhaltung</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>%1, %2, %3</source>
        <translation>%1, %2, %3</translation>
    </message>
    <message>
        <source>unread</source>
        <translation>ungelesen</translation>
    </message>
    <message>
        <source>parked send</source>
        <translation>geparkte Anfrage</translation>
    </message>
    <message>
        <source>Profile: %1</source>
        <translation>Profil: %1</translation>
    </message>
    <message>
        <source>%1, profile %2</source>
        <translation>%1, Profil %2</translation>
    </message>
    <message>
        <source>sending</source>
        <translation>sendet</translation>
    </message>
    <message>
        <source>Cost: %1</source>
        <translation>Kosten: %1</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ConversationPresenter</name>
    <message>
        <source>Cancelled. Your prompt is back in the editor.</source>
        <translation>Abgebrochen. Ihr Prompt steht wieder im Eingabefeld.</translation>
    </message>
    <message>
        <source>Waiting for the provider…</source>
        <translation>Warten auf den Anbieter…</translation>
    </message>
    <message>
        <source>It goes out by itself when the provider&apos;s limit resets.</source>
        <translation>Sie wird von selbst gesendet, sobald das Limit des Anbieters zurückgesetzt wird.</translation>
    </message>
    <message>
        <source>Parked again: the limit had not reset yet. It goes out at the new reset.</source>
        <translation>Erneut geparkt: Das Limit war noch nicht zurückgesetzt. Sie wird bei der neuen Zurücksetzung gesendet.</translation>
    </message>
    <message>
        <source>Parked automatically (Settings → Retries): it goes out by itself when the provider&apos;s limit resets.</source>
        <translation>Automatisch geparkt (Einstellungen → Wiederholungen): Sie wird von selbst gesendet, sobald das Limit des Anbieters zurückgesetzt wird.</translation>
    </message>
    <message>
        <source>Sent again: see below</source>
        <translation>Erneut gesendet: siehe unten</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Send now</source>
        <translation>Jetzt senden</translation>
    </message>
    <message>
        <source>Send it now, before the reset: the provider may refuse it again</source>
        <translation>Jetzt senden, noch vor der Zurücksetzung: Der Anbieter lehnt sie möglicherweise erneut ab</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Bearbeiten</translation>
    </message>
    <message>
        <source>Take it out of the queue and put it in the prompt editor</source>
        <translation>Aus der Warteschlange nehmen und zurück ins Eingabefeld holen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Take it out of the queue: it stays a failed send you can retry</source>
        <translation>Aus der Warteschlange nehmen: Die Anfrage bleibt fehlgeschlagen und kann wiederholt werden</translation>
    </message>
    <message>
        <source>Sending now that the limit reset; the answer shows here when it comes.</source>
        <translation>Wird jetzt gesendet, da das Limit zurückgesetzt wurde; die Antwort erscheint hier, sobald sie eintrifft.</translation>
    </message>
    <message>
        <source>Park it: it goes out by itself when the provider&apos;s limit resets</source>
        <translation>Parken: Die Anfrage wird von selbst gesendet, sobald das Limit des Anbieters zurückgesetzt wird</translation>
    </message>
    <message>
        <source>Retry now</source>
        <translation>Jetzt erneut versuchen</translation>
    </message>
    <message>
        <source>Send the failed prompt again now</source>
        <translation>Den fehlgeschlagenen Prompt jetzt erneut senden</translation>
    </message>
    <message>
        <source>%1 prompt + %2 completion tokens</source>
        <translation>%1 Prompt- + %2 Antwort-Tokens</translation>
    </message>
    <message>
        <source>%1 prompt tokens</source>
        <translation>%1 Prompt-Tokens</translation>
    </message>
    <message>
        <source>%1 completion tokens</source>
        <translation>%1 Antwort-Tokens</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 Tokens</translation>
    </message>
    <message>
        <source>This conversation is larger than the model&apos;s context window (%1 of %2 tokens), and leaving out older turns would not make it fit: shorten the prompt or lower the maximum tokens.</source>
        <translation>Diese Unterhaltung ist größer als das Kontextfenster des Modells (%1 von %2 Tokens), und auch ohne ältere Gesprächsrunden würde sie nicht hineinpassen: Kürzen Sie den Prompt oder verringern Sie die maximalen Tokens.</translation>
    </message>
    <message>
        <source>the oldest turn</source>
        <translation>die älteste Gesprächsrunde</translation>
    </message>
    <message numerus="yes">
        <source>the %n oldest turns</source>
        <translation>
            <numerusform>die %n älteste Gesprächsrunde</numerusform>
            <numerusform>die %n ältesten Gesprächsrunden</numerusform>
        </translation>
    </message>
    <message>
        <source>This conversation is larger than the model&apos;s context window (%1 of %2 tokens). Trim and resend leaves out %3 (~%4 tokens); they stay in the conversation.</source>
        <translation>Diese Unterhaltung ist größer als das Kontextfenster des Modells (%1 von %2 Tokens). „Kürzen und erneut senden“ lässt %3 weg (~%4 Tokens); in der Unterhaltung selbst bleibt alles erhalten.</translation>
    </message>
    <message>
        <source>Trim and resend</source>
        <translation>Kürzen und erneut senden</translation>
    </message>
    <message>
        <source>Leave out the oldest turns from requests and send the prompt again</source>
        <translation>Die ältesten Gesprächsrunden nicht mehr mitsenden und den Prompt erneut senden</translation>
    </message>
    <message>
        <source>The oldest turn (~%1 tokens) was left out automatically to fit the context window.</source>
        <translation>Die älteste Gesprächsrunde (~%1 Tokens) wurde automatisch weggelassen, damit die Anfrage ins Kontextfenster passt.</translation>
    </message>
    <message>
        <source>The oldest turn (~%1 tokens) is left out of requests to fit the context window.</source>
        <translation>Die älteste Gesprächsrunde (~%1 Tokens) wird nicht mehr mitgesendet, damit die Anfragen ins Kontextfenster passen.</translation>
    </message>
    <message numerus="yes">
        <source>%n oldest turns (~%1 tokens) were left out automatically to fit the context window.</source>
        <translation>
            <numerusform>Die %n älteste Gesprächsrunde (~%1 Tokens) wurde automatisch weggelassen, damit die Anfrage ins Kontextfenster passt.</numerusform>
            <numerusform>Die %n ältesten Gesprächsrunden (~%1 Tokens) wurden automatisch weggelassen, damit die Anfrage ins Kontextfenster passt.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n oldest turns (~%1 tokens) are left out of requests to fit the context window.</source>
        <translation>
            <numerusform>Die %n älteste Gesprächsrunde (~%1 Tokens) wird nicht mehr mitgesendet, damit die Anfragen ins Kontextfenster passen.</numerusform>
            <numerusform>Die %n ältesten Gesprächsrunden (~%1 Tokens) werden nicht mehr mitgesendet, damit die Anfragen ins Kontextfenster passen.</numerusform>
        </translation>
    </message>
    <message>
        <source>via %1</source>
        <translation>über %1</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1 was capped; sent to %2 instead</source>
        <translation>%1 war am Limit; stattdessen an %2 gesendet</translation>
    </message>
    <message>
        <source>Waiting for %1…</source>
        <translation>Warten auf %1…</translation>
    </message>
    <message>
        <source>Send to %1 instead</source>
        <translation>Stattdessen an %1 senden</translation>
    </message>
    <message>
        <source>Send the prompt to the profile %1, with its own endpoint, key and limits</source>
        <translation>Den Prompt an das Profil %1 senden, mit dessen eigenem Endpunkt, Schlüssel und Limits</translation>
    </message>
    <message>
        <source>Asks first: the key would go over plain HTTP, unencrypted</source>
        <translation>Fragt zuerst: Der Schlüssel ginge unverschlüsselt über einfaches HTTP</translation>
    </message>
    <message>
        <source>It goes out once you agree: Send now asks first.</source>
        <translation>Sie geht hinaus, sobald Sie zustimmen: „Jetzt senden“ fragt zuerst.</translation>
    </message>
    <message>
        <source>The provider&apos;s limit has reset: send the prompt now</source>
        <translation>Das Limit des Anbieters ist zurückgesetzt: den Prompt jetzt senden</translation>
    </message>
    <message>
        <source>Not sent yet: %1.</source>
        <translation>Noch nicht gesendet: %1.</translation>
    </message>
    <message>
        <source>Held by a limit: %1. It goes out by itself when the limit resets.</source>
        <translation>Von einem Limit zurückgehalten: %1. Die Anfrage geht von selbst hinaus, wenn das Limit zurückgesetzt wird.</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ConversationTotal</name>
    <message>
        <source>This conversation: %1 tokens</source>
        <translation>Diese Unterhaltung: %1 Tokens</translation>
    </message>
    <message>
        <source>This conversation: %1 · %2 tokens</source>
        <translation>Diese Unterhaltung: %1 · %2 Tokens</translation>
    </message>
    <message>
        <source>What the usage ledger counted for this conversation. Attempts: %1; tokens (prompt and completion): %2.</source>
        <translation>Was das Nutzungsbuch für diese Unterhaltung gezählt hat. Versuche: %1; Tokens (Prompt und Antwort): %2.</translation>
    </message>
    <message>
        <source>Answered attempts with no known price: %1.</source>
        <translation>Beantwortete Versuche ohne bekannten Preis: %1.</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ConversationView</name>
    <message>
        <source>Conversation</source>
        <translation>Unterhaltung</translation>
    </message>
    <message>
        <source>Your messages and the assistant&apos;s answers, oldest first. Text can be selected and copied.</source>
        <translation>Ihre Nachrichten und die Antworten des Assistenten, die ältesten zuerst. Text kann markiert und kopiert werden.</translation>
    </message>
    <message>
        <source>You</source>
        <translation>Sie</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Assistent</translation>
    </message>
    <message>
        <source>(incomplete)</source>
        <translation>(unvollständig)</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message numerus="yes">
        <source>… %n more characters not shown (the export has all of them)</source>
        <translation>
            <numerusform>… %n weiteres Zeichen nicht angezeigt (im Export vollständig enthalten)</numerusform>
            <numerusform>… %n weitere Zeichen nicht angezeigt (im Export vollständig enthalten)</numerusform>
        </translation>
    </message>
    <message>
        <source>This answer is too long to show in full. All of it is kept: export the conversation to read the rest.</source>
        <translation>Diese Antwort ist zu lang, um vollständig angezeigt zu werden. Sie bleibt komplett erhalten: Exportieren Sie die Unterhaltung, um den Rest zu lesen.</translation>
    </message>
    <message>
        <source>Image not loaded: %1</source>
        <translation>Bild nicht geladen: %1</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Copy this answer as received (Markdown)</source>
        <translation>Diese Antwort wie empfangen kopieren (Markdown)</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>Neu erzeugen</translation>
    </message>
    <message>
        <source>Ask again for an answer to the same conversation</source>
        <translation>Erneut um eine Antwort auf dieselbe Unterhaltung bitten</translation>
    </message>
    <message>
        <source>Edit and resend</source>
        <translation>Bearbeiten und erneut senden</translation>
    </message>
    <message>
        <source>Put this prompt back in the editor; sending replaces it and its answer</source>
        <translation>Diesen Prompt zurück ins Eingabefeld holen; Senden ersetzt ihn und seine Antwort</translation>
    </message>
    <message>
        <source>Parked</source>
        <translation>Geparkt</translation>
    </message>
    <message>
        <source>Hide details</source>
        <translation>Details ausblenden</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
    <message>
        <source>The provider&apos;s answer as received, with the endpoint, the status and the attempts</source>
        <translation>Die Antwort des Anbieters wie empfangen, mit Endpunkt, Status und Versuchen</translation>
    </message>
    <message>
        <source>Copy details</source>
        <translation>Details kopieren</translation>
    </message>
    <message>
        <source>Copy the provider&apos;s answer and the attempts as plain text</source>
        <translation>Die Antwort des Anbieters und die Versuche als Text kopieren</translation>
    </message>
    <message>
        <source>Make a rules file with this answer&apos;s text, to be read as another kind of failure from the next start on</source>
        <translation>Eine Regeldatei mit dem Text dieser Antwort anlegen, damit sie ab dem nächsten Start als andere Fehlerart gelesen wird</translation>
    </message>
    <message>
        <source>Wrong? Add a rule…</source>
        <translation>Falsch? Regel hinzufügen …</translation>
    </message>
    <message>
        <source>How rules work</source>
        <translation>Wie Regeln funktionieren</translation>
    </message>
    <message>
        <source>Continued here: the words after this mark came with Continue</source>
        <translation>Hier fortgesetzt: die Wörter nach dieser Marke kamen mit „Fortsetzen“</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Ask the model to go on where this answer stopped; what it adds joins this answer</source>
        <translation>Das Modell dort weitermachen lassen, wo diese Antwort aufhörte; was es ergänzt, wird an diese Antwort angefügt</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::DemoBanner</name>
    <message>
        <source>&amp;Configure a provider…</source>
        <translation>Anbieter &amp;konfigurieren…</translation>
    </message>
    <message>
        <source>Demo provider notice</source>
        <translation>Hinweis zum Demo-Anbieter</translation>
    </message>
    <message>
        <source>Open the provider settings</source>
        <translation>Anbietereinstellungen öffnen</translation>
    </message>
    <message>
        <source>You are chatting with capwatch&apos;s built-in demo provider, no account needed. It allows 6,000 tokens a minute: after a few quick messages capwatch holds the next one until the window has room, and Send now sends it anyway, into a real retry cycle.</source>
        <translation>Sie chatten mit dem integrierten Demo-Anbieter von capwatch – ganz ohne Konto. Er erlaubt 6.000 Tokens pro Minute: Nach einigen schnellen Nachrichten hält capwatch die nächste zurück, bis im Fenster wieder Platz ist, und „Jetzt senden“ schickt sie trotzdem ab – in einen echten Wiederholungszyklus.</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ExportAllDialog</name>
    <message>
        <source>Export all retry logs</source>
        <translation>Alle Wiederholungsprotokolle exportieren</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>To</source>
        <translation>Bis</translation>
    </message>
    <message>
        <source>&amp;From:</source>
        <translation>&amp;Von:</translation>
    </message>
    <message>
        <source>&amp;To (included):</source>
        <translation>&amp;Bis (einschließlich):</translation>
    </message>
    <message>
        <source>&amp;Choose file…</source>
        <translation>&amp;Datei auswählen…</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::HistoryBanner</name>
    <message>
        <source>unknown error</source>
        <translation>unbekannter Fehler</translation>
    </message>
    <message>
        <source>The history database could not be read (%1). It was moved to %2 and a new one was started.</source>
        <translation>Die Verlaufsdatenbank konnte nicht gelesen werden (%1). Sie wurde nach %2 verschoben und eine neue wurde angelegt.</translation>
    </message>
    <message>
        <source>The history database %1 was made by a newer capwatch; history is off for this run (nothing is written to it).</source>
        <translation>Die Verlaufsdatenbank %1 stammt von einer neueren capwatch-Version; der Verlauf ist für diesen Start ausgeschaltet (es wird nichts in sie geschrieben).</translation>
    </message>
    <message>
        <source>The history database %1 could not be opened (%2); history is off for this run: nothing is kept.</source>
        <translation>Die Verlaufsdatenbank %1 konnte nicht geöffnet werden (%2); der Verlauf ist für diesen Start ausgeschaltet: Es wird nichts gespeichert.</translation>
    </message>
    <message>
        <source>History notice</source>
        <translation>Hinweis zum Verlauf</translation>
    </message>
    <message>
        <source>Copy &amp;path</source>
        <translation>P&amp;fad kopieren</translation>
    </message>
    <message>
        <source>Copy the path of the moved database</source>
        <translation>Pfad der verschobenen Datenbank kopieren</translation>
    </message>
    <message>
        <source>Close the notice</source>
        <translation>Hinweis schließen</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::HistoryController</name>
    <message>
        <source>The conversation could not be opened: %1</source>
        <translation>Die Unterhaltung konnte nicht geöffnet werden: %1</translation>
    </message>
    <message>
        <source>History is off.</source>
        <translation>Der Verlauf ist ausgeschaltet.</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export all retry logs</source>
        <translation>Alle Wiederholungsprotokolle exportieren</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n retry records</source>
        <translation>
            <numerusform>%n Wiederholungseintrag exportiert</numerusform>
            <numerusform>%n Wiederholungseinträge exportiert</numerusform>
        </translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message>
        <source>The retry logs were not written: %1</source>
        <translation>Die Wiederholungsprotokolle wurden nicht geschrieben: %1</translation>
    </message>
    <message>
        <source>History cleared</source>
        <translation>Verlauf geleert</translation>
    </message>
    <message>
        <source>Private: nothing is kept</source>
        <translation>Privat: Es wird nichts gespeichert</translation>
    </message>
    <message>
        <source>Started with --private: this run&apos;s conversations are kept in memory only and are gone when capwatch quits.</source>
        <translation>Mit --private gestartet: Die Unterhaltungen dieses Starts werden nur im Arbeitsspeicher gehalten und sind verloren, sobald capwatch beendet wird.</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::HistorySettingsDialog</name>
    <message>
        <source>&amp;Keep everything</source>
        <translation>Alles &amp;behalten</translation>
    </message>
    <message>
        <source>&amp;Delete conversations older than</source>
        <translation>Unterhaltungen &amp;löschen, die älter sind als</translation>
    </message>
    <message>
        <source>C&amp;lear history…</source>
        <translation>&amp;Verlauf leeren…</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>Keep conversations</source>
        <translation>Unterhaltungen aufbewahren</translation>
    </message>
    <message>
        <source> days</source>
        <translation> Tage</translation>
    </message>
    <message>
        <source>Days to keep conversations</source>
        <translation>Aufbewahrungsdauer der Unterhaltungen in Tagen</translation>
    </message>
    <message>
        <source>This is a private run: nothing is kept on disk, so there is nothing to delete.</source>
        <translation>Dies ist ein privater Start: Es wird nichts auf dem Datenträger gespeichert, daher gibt es nichts zu löschen.</translation>
    </message>
    <message>
        <source>Clear history</source>
        <translation>Verlauf leeren</translation>
    </message>
    <message>
        <source>Delete every stored conversation with its messages and retry log? This cannot be undone.</source>
        <translation>Alle gespeicherten Unterhaltungen mit ihren Nachrichten und Wiederholungsprotokollen löschen? Dies kann nicht rückgängig gemacht werden.</translation>
    </message>
    <message>
        <source>&amp;Clear history</source>
        <translation>Verlauf &amp;leeren</translation>
    </message>
    <message>
        <source>Also clear the &amp;usage ledger</source>
        <translation>Auch das &amp;Nutzungsbuch leeren</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::HistorySidebar</name>
    <message>
        <source>Delete conversation</source>
        <translation>Unterhaltung löschen</translation>
    </message>
    <message>
        <source>Delete “%1” with its messages and retry log? This cannot be undone.</source>
        <translation>„%1“ mit seinen Nachrichten und seinem Wiederholungsprotokoll löschen? Dies kann nicht rückgängig gemacht werden.</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>&amp;Löschen</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>Ö&amp;ffnen</translation>
    </message>
    <message>
        <source>History is off.</source>
        <translation>Der Verlauf ist ausgeschaltet.</translation>
    </message>
    <message>
        <source>No conversation contains “%1”.</source>
        <translation>Keine Unterhaltung enthält „%1“.</translation>
    </message>
    <message>
        <source>No conversations yet. They are kept here after you send a prompt.</source>
        <translation>Noch keine Unterhaltungen. Sie werden hier aufbewahrt, sobald Sie einen Prompt senden.</translation>
    </message>
    <message>
        <source>&amp;New conversation</source>
        <translation>&amp;Neue Unterhaltung</translation>
    </message>
    <message>
        <source>New conversation (%1)</source>
        <translation>Neue Unterhaltung (%1)</translation>
    </message>
    <message>
        <source>Start an empty conversation; the open one stays in the list</source>
        <translation>Eine leere Unterhaltung beginnen; die geöffnete bleibt in der Liste</translation>
    </message>
    <message>
        <source>&amp;Find in conversations</source>
        <translation>In Unterhaltungen s&amp;uchen</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>&amp;Umbenennen</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>&amp;Löschen…</translation>
    </message>
    <message>
        <source>Search conversations (%1)</source>
        <translation>Unterhaltungen durchsuchen (%1)</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>Unterhaltungen durchsuchen</translation>
    </message>
    <message>
        <source>Finds conversations by the words in their messages as you type; Esc shows all</source>
        <translation>Findet Unterhaltungen schon während der Eingabe anhand der Wörter in ihren Nachrichten; Esc zeigt alle an</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>Unterhaltungen</translation>
    </message>
    <message>
        <source>Stored conversations, newest first</source>
        <translation>Gespeicherte Unterhaltungen, die neuesten zuerst</translation>
    </message>
    <message>
        <source>Conversation history</source>
        <translation>Unterhaltungsverlauf</translation>
    </message>
    <message>
        <source>Opening the history…</source>
        <translation>Der Verlauf wird geöffnet…</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::InsightsCard</name>
    <message>
        <source>The numbers are in the table.</source>
        <translation>Die Zahlen stehen in der Tabelle.</translation>
    </message>
    <message>
        <source>Nothing in this range.</source>
        <translation>Keine Daten in diesem Zeitraum.</translation>
    </message>
    <message>
        <source>There is no chart to export.</source>
        <translation>Es gibt kein Diagramm zum Exportieren.</translation>
    </message>
    <message>
        <source>The image could not be written.</source>
        <translation>Das Bild konnte nicht geschrieben werden.</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG-Bild (*.png)</translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation>SVG-Bild (*.svg)</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV-Tabelle (*.csv)</translation>
    </message>
    <message>
        <source>Export %1</source>
        <translation>%1 exportieren</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>Tabelle</translation>
    </message>
    <message>
        <source>Show the numbers of this chart as a table</source>
        <translation>Die Zahlen dieses Diagramms als Tabelle anzeigen</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>PNG image…</source>
        <translation>PNG-Bild…</translation>
    </message>
    <message>
        <source>SVG image…</source>
        <translation>SVG-Bild…</translation>
    </message>
    <message>
        <source>CSV table…</source>
        <translation>CSV-Tabelle…</translation>
    </message>
    <message>
        <source>Drawing the chart…</source>
        <translation>Diagramm wird gezeichnet …</translation>
    </message>
    <message>
        <source>Table of %1</source>
        <translation>Tabelle: %1</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::InsightsDigest</name>
    <message>
        <source>Day</source>
        <translation>Tag</translation>
    </message>
    <message>
        <source>Week from</source>
        <translation>Woche ab</translation>
    </message>
    <message>
        <source>Month</source>
        <translation>Monat</translation>
    </message>
    <message>
        <source>Tokens by model</source>
        <translation>Tokens nach Modell</translation>
    </message>
    <message>
        <source>Tokens by profile</source>
        <translation>Tokens nach Profil</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Tokens</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keines)</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Sonstige</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>Kosten</translation>
    </message>
    <message>
        <source>Billed by the provider</source>
        <translation>Vom Anbieter abgerechnet</translation>
    </message>
    <message>
        <source>Estimated from prices</source>
        <translation>Aus Preisen geschätzt</translation>
    </message>
    <message>
        <source>Time lost to caps</source>
        <translation>Durch Limits verlorene Zeit</translation>
    </message>
    <message>
        <source>Minutes</source>
        <translation>Minuten</translation>
    </message>
    <message>
        <source>Retry waits</source>
        <translation>Wiederholungen</translation>
    </message>
    <message>
        <source>Pacing</source>
        <translation>Drosselung</translation>
    </message>
    <message>
        <source>Parked</source>
        <translation>Geparkt</translation>
    </message>
    <message>
        <source>Time lost by profile</source>
        <translation>Verlorene Zeit nach Profil</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>Profil</translation>
    </message>
    <message>
        <source>Refusals by category</source>
        <translation>Ablehnungen nach Kategorie</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>Kategorie</translation>
    </message>
    <message>
        <source>Refused attempts</source>
        <translation>Abgelehnte Versuche</translation>
    </message>
    <message>
        <source>Where the waits came from</source>
        <translation>Woher die Wartezeiten stammen</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Time waited</source>
        <translation>Wartezeit</translation>
    </message>
    <message>
        <source>Waits</source>
        <translation>Wartevorgänge</translation>
    </message>
    <message>
        <source>How sends ended</source>
        <translation>Ausgang der Anfragen</translation>
    </message>
    <message>
        <source>Sends</source>
        <translation>Anfragen</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Answered first time</source>
        <translation>Beim ersten Versuch beantwortet</translation>
    </message>
    <message>
        <source>Answered after retries</source>
        <translation>Nach Wiederholungen beantwortet</translation>
    </message>
    <message>
        <source>Parked, then answered</source>
        <translation>Geparkt, dann beantwortet</translation>
    </message>
    <message>
        <source>Not answered</source>
        <translation>Nicht beantwortet</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::InsightsTableModel</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::InsightsWindow</name>
    <message>
        <source>Insights — capwatch</source>
        <translation>Auswertung — capwatch</translation>
    </message>
    <message>
        <source>&amp;Range:</source>
        <translation>&amp;Zeitraum:</translation>
    </message>
    <message>
        <source>&amp;Filter:</source>
        <translation>&amp;Filter:</translation>
    </message>
    <message>
        <source>&amp;Tokens by:</source>
        <translation>&amp;Tokens nach:</translation>
    </message>
    <message>
        <source>Spending limits</source>
        <translation>Verbrauchslimits</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>Heute</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>Letzte 7 Tage</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>Letzte 30 Tage</translation>
    </message>
    <message>
        <source>Last 90 days</source>
        <translation>Letzte 90 Tage</translation>
    </message>
    <message>
        <source>All</source>
        <translation>Gesamter Zeitraum</translation>
    </message>
    <message>
        <source>Dates…</source>
        <translation>Benutzerdefiniert…</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>Profil</translation>
    </message>
    <message>
        <source>First day</source>
        <translation>Erster Tag</translation>
    </message>
    <message>
        <source>Last day</source>
        <translation>Letzter Tag</translation>
    </message>
    <message>
        <source>This run keeps no history (--private): there is nothing to sum.</source>
        <translation>Dieser Start speichert keinen Verlauf (--private): Es gibt nichts auszuwerten.</translation>
    </message>
    <message>
        <source>Nothing was sent in this range. capwatch counts every attempt, of this window and of capwatch-cli, in its history.</source>
        <translation>In diesem Zeitraum wurde nichts gesendet. capwatch zählt jeden Versuch in seinem Verlauf, aus diesem Fenster wie aus capwatch-cli.</translation>
    </message>
    <message>
        <source>Sends: %1</source>
        <translation>Anfragen: %1</translation>
    </message>
    <message>
        <source>tokens: %1</source>
        <translation>Tokens: %1</translation>
    </message>
    <message>
        <source>billed: %1</source>
        <translation>abgerechnet: %1</translation>
    </message>
    <message>
        <source>estimated: %1</source>
        <translation>geschätzt: %1</translation>
    </message>
    <message>
        <source>lost to caps: %1</source>
        <translation>durch Limits verloren: %1</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keines)</translation>
    </message>
    <message>
        <source>All profiles</source>
        <translation>Alle Profile</translation>
    </message>
    <message>
        <source>All models</source>
        <translation>Alle Modelle</translation>
    </message>
    <message>
        <source>Back to the chat</source>
        <translation>Zurück zur Unterhaltung</translation>
    </message>
    <message>
        <source>Back to the conversation (Esc or Ctrl+I)</source>
        <translation>Zurück zur Unterhaltung (Esc oder Strg+I)</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::Keychain</name>
    <message>
        <source>system keychain</source>
        <translation>System-Schlüsselbund</translation>
    </message>
    <message>
        <source>the window is closing</source>
        <translation>das Fenster wird geschlossen</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::LimitQuestion</name>
    <message>
        <source>Over your spending limit?</source>
        <translation>Verbrauchslimit überschreiten?</translation>
    </message>
    <message>
        <source>Over the provider&apos;s daily limit?</source>
        <translation>Tageslimit des Anbieters überschreiten?</translation>
    </message>
    <message>
        <source>%1 declares a daily limit for its provider, and it is reached. %2.</source>
        <translation>Das Profil %1 hat ein Tageslimit für seinen Anbieter hinterlegt, und es ist erreicht. %2.</translation>
    </message>
    <message>
        <source>The limit resets at %1. Limits are set in Settings → Providers.</source>
        <translation>Zurücksetzung des Limits: %1. Limits werden unter Einstellungen → Anbieter festgelegt.</translation>
    </message>
    <message>
        <source>Send &amp;anyway</source>
        <translation>Trotzdem &amp;senden</translation>
    </message>
    <message>
        <source>Send when the limit &amp;resets at %1</source>
        <translation>Senden, wenn das Limit &amp;zurückgesetzt wird (%1)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>This send may cross a spending limit of the profile %1. %2.</source>
        <translation>Diese Anfrage kann ein Verbrauchslimit des Profils %1 überschreiten. %2.</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::LimitsBox</name>
    <message>
        <source>No limit</source>
        <translation>Kein Limit</translation>
    </message>
    <message>
        <source>Spending limits</source>
        <translation>Verbrauchslimits</translation>
    </message>
    <message>
        <source>Checked before each send against the most it could use, counting all of this profile&apos;s sends (capwatch-cli&apos;s too) per calendar day and month. A cost needs the model&apos;s price.</source>
        <translation>Vor jedem Senden mit dem Höchstverbrauch der Anfrage geprüft; gezählt werden alle Anfragen dieses Profils (auch die von capwatch-cli) je Kalendertag und -monat. Kosten brauchen den Preis des Modells.</translation>
    </message>
    <message>
        <source>Limits the provider states but never sends</source>
        <translation>Limits, die der Anbieter nennt, aber nie mitschickt</translation>
    </message>
    <message>
        <source>The provider&apos;s published rate limits, which its answers do not tell: capwatch paces sends to stay within them. A send that would pass a daily one is held as a spending limit holds it.</source>
        <translation>Die veröffentlichten Ratenlimits des Anbieters, die seine Antworten nicht mitteilen: capwatch drosselt die Anfragen, um darunter zu bleiben. Eine Anfrage, die ein Tageslimit überschreiten würde, wird wie bei einem Verbrauchslimit zurückgehalten.</translation>
    </message>
    <message>
        <source>Ask</source>
        <translation>Fragen</translation>
    </message>
    <message>
        <source>Park until it resets</source>
        <translation>Bis zur Zurücksetzung parken</translation>
    </message>
    <message>
        <source>Refuse</source>
        <translation>Ablehnen</translation>
    </message>
    <message>
        <source>Tokens per day:</source>
        <translation>Tokens pro Tag:</translation>
    </message>
    <message>
        <source>Spending limit: tokens per day</source>
        <translation>Verbrauchslimit: Tokens pro Tag</translation>
    </message>
    <message>
        <source>The most tokens (prompt and answer) this profile&apos;s sends may use in a calendar day</source>
        <translation>Die meisten Tokens (Prompt und Antwort), die die Anfragen dieses Profils an einem Kalendertag verbrauchen dürfen</translation>
    </message>
    <message>
        <source>Tokens per month:</source>
        <translation>Tokens pro Monat:</translation>
    </message>
    <message>
        <source>Spending limit: tokens per month</source>
        <translation>Verbrauchslimit: Tokens pro Monat</translation>
    </message>
    <message>
        <source>The most tokens (prompt and answer) this profile&apos;s sends may use in a calendar month</source>
        <translation>Die meisten Tokens (Prompt und Antwort), die die Anfragen dieses Profils in einem Kalendermonat verbrauchen dürfen</translation>
    </message>
    <message>
        <source>Cost per day:</source>
        <translation>Kosten pro Tag:</translation>
    </message>
    <message>
        <source>Spending limit: cost per day</source>
        <translation>Verbrauchslimit: Kosten pro Tag</translation>
    </message>
    <message>
        <source>The most this profile&apos;s sends may cost in a calendar day, in USD, by the model&apos;s price</source>
        <translation>Was die Anfragen dieses Profils an einem Kalendertag höchstens kosten dürfen, in USD, nach dem Preis des Modells</translation>
    </message>
    <message>
        <source>Cost per month:</source>
        <translation>Kosten pro Monat:</translation>
    </message>
    <message>
        <source>Spending limit: cost per month</source>
        <translation>Verbrauchslimit: Kosten pro Monat</translation>
    </message>
    <message>
        <source>The most this profile&apos;s sends may cost in a calendar month, in USD, by the model&apos;s price</source>
        <translation>Was die Anfragen dieses Profils in einem Kalendermonat höchstens kosten dürfen, in USD, nach dem Preis des Modells</translation>
    </message>
    <message>
        <source>When a send would cross a limit:</source>
        <translation>Wenn eine Anfrage ein Limit überschreiten würde:</translation>
    </message>
    <message>
        <source>When a send would cross a limit</source>
        <translation>Wenn eine Anfrage ein Limit überschreiten würde</translation>
    </message>
    <message>
        <source>Ask: offer to send anyway or when the limit resets. Park: hold the send until the limit resets, without asking. Refuse: do not send; the prompt stays in the editor</source>
        <translation>Fragen: anbieten, trotzdem zu senden oder wenn das Limit zurückgesetzt wird. Parken: die Anfrage ohne Nachfrage bis zur Zurücksetzung zurückhalten. Ablehnen: nicht senden; der Prompt bleibt im Editor</translation>
    </message>
    <message>
        <source>Requests per minute:</source>
        <translation>Anfragen pro Minute:</translation>
    </message>
    <message>
        <source>Provider&apos;s limit: requests per minute</source>
        <translation>Limit des Anbieters: Anfragen pro Minute</translation>
    </message>
    <message>
        <source>The most requests the provider takes in any 60 seconds</source>
        <translation>Die meisten Anfragen, die der Anbieter in beliebigen 60 Sekunden annimmt</translation>
    </message>
    <message>
        <source>Tokens per minute:</source>
        <translation>Tokens pro Minute:</translation>
    </message>
    <message>
        <source>Provider&apos;s limit: tokens per minute</source>
        <translation>Limit des Anbieters: Tokens pro Minute</translation>
    </message>
    <message>
        <source>The most tokens the provider takes in any 60 seconds</source>
        <translation>Die meisten Tokens, die der Anbieter in beliebigen 60 Sekunden annimmt</translation>
    </message>
    <message>
        <source>Requests per day:</source>
        <translation>Anfragen pro Tag:</translation>
    </message>
    <message>
        <source>Provider&apos;s limit: requests per day</source>
        <translation>Limit des Anbieters: Anfragen pro Tag</translation>
    </message>
    <message>
        <source>The most requests the provider takes in a day (until midnight, local time)</source>
        <translation>Die meisten Anfragen, die der Anbieter an einem Tag annimmt (bis Mitternacht, Ortszeit)</translation>
    </message>
    <message>
        <source>Provider&apos;s limit: tokens per day</source>
        <translation>Limit des Anbieters: Tokens pro Tag</translation>
    </message>
    <message>
        <source>The most tokens the provider takes in a day (until midnight, local time)</source>
        <translation>Die meisten Tokens, die der Anbieter an einem Tag annimmt (bis Mitternacht, Ortszeit)</translation>
    </message>
    <message>
        <source>Requests at once:</source>
        <translation>Gleichzeitige Anfragen:</translation>
    </message>
    <message>
        <source>Provider&apos;s limit: requests in flight</source>
        <translation>Limit des Anbieters: gleichzeitige Anfragen</translation>
    </message>
    <message>
        <source>The most requests the provider takes at the same time (counted within one capwatch window or capwatch-cli run)</source>
        <translation>Die meisten Anfragen, die der Anbieter gleichzeitig annimmt (gezählt innerhalb eines capwatch-Fensters oder eines capwatch-cli-Aufrufs)</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::MainMenus</name>
    <message>
        <source>&amp;Export retry log…</source>
        <translation>Wiederholungsprotokoll &amp;exportieren…</translation>
    </message>
    <message>
        <source>&amp;Copy retry log as text</source>
        <translation>Wiederholungsprotokoll als Text &amp;kopieren</translation>
    </message>
    <message>
        <source>Export &amp;conversation as Markdown…</source>
        <translation>&amp;Unterhaltung als Markdown exportieren…</translation>
    </message>
    <message>
        <source>Export &amp;all retry logs…</source>
        <translation>&amp;Alle Wiederholungsprotokolle exportieren…</translation>
    </message>
    <message>
        <source>&amp;History…</source>
        <translation>&amp;Verlauf…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Provider and retries…</source>
        <translation>&amp;Anbieter und Wiederholungen…</translation>
    </message>
    <message>
        <source>&amp;About capwatch</source>
        <translation>Ü&amp;ber capwatch</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>&amp;Einstellungen</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>About capwatch</source>
        <translation>Über capwatch</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;capwatch&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;A chat client for OpenAI-compatible providers with strict token caps. It retries token-limit errors by a strict, visible policy: at most %2 attempts, waits of at most %3 s, %4 s in all.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;capwatch&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;Ein Chat-Client für OpenAI-kompatible Anbieter mit strikten Token-Obergrenzen. Er wiederholt Token-Limit-Fehler nach einer strikten, nachvollziehbaren Richtlinie: höchstens %2 Versuche, Wartezeiten von höchstens %3 s, insgesamt %4 s.&lt;/p&gt;</translation>
    </message>
    <message numerus="yes">
        <source>Retry log exported to %1 (%n records)</source>
        <translation>
            <numerusform>Wiederholungsprotokoll nach %1 exportiert (%n Eintrag)</numerusform>
            <numerusform>Wiederholungsprotokoll nach %1 exportiert (%n Einträge)</numerusform>
        </translation>
    </message>
    <message>
        <source>Conversation exported to %1</source>
        <translation>Unterhaltung nach %1 exportiert</translation>
    </message>
    <message>
        <source>capwatch conversation</source>
        <translation>capwatch-Unterhaltung</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>Datum</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>Endpunkt</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>nicht festgelegt</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export retry log</source>
        <translation>Wiederholungsprotokoll exportieren</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message>
        <source>The retry log was not written: %1</source>
        <translation>Das Wiederholungsprotokoll wurde nicht geschrieben: %1</translation>
    </message>
    <message>
        <source>Export conversation</source>
        <translation>Unterhaltung exportieren</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>The conversation was not written: %1</source>
        <translation>Die Unterhaltung wurde nicht geschrieben: %1</translation>
    </message>
    <message numerus="yes">
        <source>Retry log copied (%n records)</source>
        <translation>
            <numerusform>Wiederholungsprotokoll kopiert (%n Eintrag)</numerusform>
            <numerusform>Wiederholungsprotokoll kopiert (%n Einträge)</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Insights</source>
        <translation>&amp;Auswertung</translation>
    </message>
    <message>
        <source>Where the time and the money go, in charts</source>
        <translation>Wohin Zeit und Geld gehen, in Diagrammen</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::MainWindow</name>
    <message>
        <source>capwatch</source>
        <translation>capwatch</translation>
    </message>
    <message>
        <source>&amp;Timeline</source>
        <translation>&amp;Zeitleiste</translation>
    </message>
    <message>
        <source>Retry &amp;log</source>
        <translation>&amp;Wiederholungsprotokoll</translation>
    </message>
    <message>
        <source>Retry history</source>
        <translation>Wiederholungsverlauf</translation>
    </message>
    <message>
        <source>Retry log</source>
        <translation>Wiederholungsprotokoll</translation>
    </message>
    <message>
        <source>Every attempt and wait of this session</source>
        <translation>Alle Versuche und Wartezeiten dieser Sitzung</translation>
    </message>
    <message>
        <source>The provider settings changed, so the send in progress was stopped.</source>
        <translation>Die Anbietereinstellungen wurden geändert, daher wurde die laufende Anfrage beendet.</translation>
    </message>
    <message>
        <source>Answer copied</source>
        <translation>Antwort kopiert</translation>
    </message>
    <message>
        <source>capwatch (private)</source>
        <translation>capwatch (privat)</translation>
    </message>
    <message>
        <source>The settings of the fallback profile %1 changed, so the send in progress was stopped.</source>
        <translation>Die Einstellungen des Ausweichprofils %1 haben sich geändert, deshalb wurde das laufende Senden gestoppt.</translation>
    </message>
    <message>
        <source>Quit capwatch</source>
        <translation>capwatch beenden</translation>
    </message>
    <message>
        <source>Quit while sends are not done?</source>
        <translation>Beenden, obwohl Anfragen nicht fertig sind?</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>Don&apos;t ask again</source>
        <translation>Nicht mehr fragen</translation>
    </message>
    <message numerus="yes">
        <source>%n rules file(s) left out: %1. capwatch reads failures with its built-in rules and your other files.</source>
        <translation>
            <numerusform>%n Regeldatei ausgelassen: %1. capwatch liest Fehler mit den eingebauten Regeln und Ihren anderen Dateien.</numerusform>
            <numerusform>%n Regeldateien ausgelassen: %1. capwatch liest Fehler mit den eingebauten Regeln und Ihren anderen Dateien.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ParkedQueueModel</name>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>Times this send was parked in a row: at most %1</source>
        <translation>Wie oft diese Anfrage hintereinander geparkt wurde: höchstens %1</translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation>Unterhaltung</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>Prompt</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Parked until</source>
        <translation>Geparkt bis</translation>
    </message>
    <message>
        <source>In</source>
        <translation>Verbleibend</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Parks</source>
        <translation>Parkvorgänge</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ParkedQueueView</name>
    <message>
        <source>Nothing is parked. When a provider&apos;s limit resets later than the retries can wait, a send can wait here for the reset and go out by itself: choose &quot;Send at&quot; on its card, or let Settings → Retries park it automatically.</source>
        <translation>Es ist nichts geparkt. Wird das Limit eines Anbieters später zurückgesetzt, als die Wiederholungen warten können, kann eine Anfrage hier auf die Zurücksetzung warten und dann von selbst gesendet werden: Wählen Sie „Senden um“ auf ihrer Karte, oder lassen Sie sie über Einstellungen → Wiederholungen automatisch parken.</translation>
    </message>
    <message>
        <source>Open conversation</source>
        <translation>Unterhaltung öffnen</translation>
    </message>
    <message>
        <source>Send now</source>
        <translation>Jetzt senden</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Parked sends</source>
        <translation>Geparkte Anfragen</translation>
    </message>
    <message>
        <source>Every parked send of every conversation, the next to go out first. Enter opens its conversation.</source>
        <translation>Alle geparkten Anfragen aller Unterhaltungen, die nächste zuerst. Eingabe öffnet ihre Unterhaltung.</translation>
    </message>
    <message>
        <source>Nothing is parked</source>
        <translation>Es ist nichts geparkt</translation>
    </message>
    <message>
        <source>Show the selected send&apos;s conversation</source>
        <translation>Die Unterhaltung der ausgewählten Anfrage anzeigen</translation>
    </message>
    <message>
        <source>Send the selected parked send now, before its provider&apos;s reset</source>
        <translation>Die ausgewählte geparkte Anfrage jetzt senden, noch vor der Zurücksetzung des Anbieterlimits</translation>
    </message>
    <message>
        <source>Take the selected send out of the queue; it stays a failed send you can retry</source>
        <translation>Die ausgewählte Anfrage aus der Warteschlange nehmen; sie bleibt fehlgeschlagen und kann wiederholt werden</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Warteschlange</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ParkingController</name>
    <message>
        <source>The parked send was answered.</source>
        <translation>Die geparkte Anfrage wurde beantwortet.</translation>
    </message>
    <message>
        <source>The parked send hit the limit again and waits for the next reset.</source>
        <translation>Die geparkte Anfrage ist erneut an das Limit gestoßen und wartet auf die nächste Zurücksetzung.</translation>
    </message>
    <message>
        <source>The parked send failed; its prompt is kept.</source>
        <translation>Die geparkte Anfrage ist fehlgeschlagen; ihr Prompt bleibt erhalten.</translation>
    </message>
    <message>
        <source>capwatch</source>
        <translation>capwatch</translation>
    </message>
    <message>
        <source>The send was answered in its conversation.</source>
        <translation>Die Anfrage wurde in ihrer Unterhaltung beantwortet.</translation>
    </message>
    <message>
        <source>The send hit the limit and was parked until the provider&apos;s reset.</source>
        <translation>Die Anfrage ist an das Limit gestoßen und bis zur Zurücksetzung beim Anbieter geparkt.</translation>
    </message>
    <message>
        <source>The send was stopped; its prompt is kept.</source>
        <translation>Die Anfrage wurde gestoppt; ihr Prompt bleibt erhalten.</translation>
    </message>
    <message>
        <source>The send failed; its prompt is kept.</source>
        <translation>Die Anfrage ist fehlgeschlagen; ihr Prompt bleibt erhalten.</translation>
    </message>
    <message>
        <source>&amp;Queue (%1)</source>
        <translation>Wa&amp;rteschlange (%1)</translation>
    </message>
    <message>
        <source>&amp;Queue</source>
        <translation>Wa&amp;rteschlange</translation>
    </message>
    <message>
        <source>Sends parked until their provider&apos;s limit resets</source>
        <translation>Anfragen, die geparkt sind, bis das Limit ihres Anbieters zurückgesetzt wird</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::PlainHttpWarning</name>
    <message>
        <source>Send the key unencrypted?</source>
        <translation>Schlüssel unverschlüsselt senden?</translation>
    </message>
    <message>
        <source>%1 uses plain HTTP. Your API key would travel unencrypted, readable by anyone on the way to %2.</source>
        <translation>%1 verwendet unverschlüsseltes HTTP. Ihr API-Schlüssel würde unverschlüsselt übertragen, lesbar für jeden auf dem Weg zu %2.</translation>
    </message>
    <message>
        <source>Use an https:// endpoint to keep the key private.</source>
        <translation>Verwenden Sie einen https://-Endpunkt, damit der Schlüssel geheim bleibt.</translation>
    </message>
    <message>
        <source>Send &amp;anyway</source>
        <translation>Trotzdem &amp;senden</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::PolicyOverridesBox</name>
    <message>
        <source>Retry policy</source>
        <translation>Wiederholungsrichtlinie</translation>
    </message>
    <message>
        <source>Retry token &amp;limits</source>
        <translation>Bei &amp;Token-Limits wiederholen</translation>
    </message>
    <message>
        <source>Retr&amp;y rate limits</source>
        <translation>Bei &amp;Ratenlimits wiederholen</translation>
    </message>
    <message>
        <source>Retry server errors (&amp;5xx)</source>
        <translation>Bei Serverfehlern wiederholen (&amp;5xx)</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Default (%1 s)</source>
        <translation>Standard (%1 s)</translation>
    </message>
    <message>
        <source>Default (%1)</source>
        <translation>Standard (%1)</translation>
    </message>
    <message>
        <source>Per-&amp;wait cap:</source>
        <translation>Obergrenze je &amp;Wartezeit:</translation>
    </message>
    <message>
        <source>Per-wait cap</source>
        <translation>Obergrenze je Wartezeit</translation>
    </message>
    <message>
        <source>The longest single wait before a retry, 1 to 600 s; the lowest value is the default of %1 s</source>
        <translation>Die längste einzelne Wartezeit vor einer Wiederholung, 1 bis 600 s; der niedrigste Wert bedeutet den Standard von %1 s</translation>
    </message>
    <message>
        <source>Bud&amp;get:</source>
        <translation>Bud&amp;get:</translation>
    </message>
    <message>
        <source>Retry budget</source>
        <translation>Wiederholungsbudget</translation>
    </message>
    <message>
        <source>All waits of one send together, 0 to 3600 s; 0 sends once and never retries; the lowest value is the default of %1 s</source>
        <translation>Alle Wartezeiten einer Anfrage zusammen, 0 bis 3600 s; bei 0 wird einmal gesendet und nie wiederholt; der niedrigste Wert bedeutet den Standard von %1 s</translation>
    </message>
    <message>
        <source>A&amp;ttempts:</source>
        <translation>&amp;Versuche:</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>Requests of one send, the first included, 1 to 10; the lowest value is the default of %1</source>
        <translation>Anfragen je Sendevorgang, die erste eingeschlossen, 1 bis 10; der niedrigste Wert bedeutet den Standard von %1</translation>
    </message>
    <message>
        <source>Ba&amp;ckoff base:</source>
        <translation>&amp;Backoff-Basis:</translation>
    </message>
    <message>
        <source>Backoff base</source>
        <translation>Backoff-Basis</translation>
    </message>
    <message>
        <source>The first wait when the provider names none, doubled for each further retry, 1 to 60 s; the lowest value is the default of %1 s</source>
        <translation>Die erste Wartezeit, wenn der Anbieter keine nennt, verdoppelt bei jeder weiteren Wiederholung, 1 bis 60 s; der niedrigste Wert bedeutet den Standard von %1 s</translation>
    </message>
    <message>
        <source>&amp;Header timeout:</source>
        <translation>Header-Zeitl&amp;imit:</translation>
    </message>
    <message>
        <source>Header timeout of a retry</source>
        <translation>Header-Zeitlimit einer Wiederholung</translation>
    </message>
    <message>
        <source>How long a retry waits for the provider&apos;s answer to begin, 10 to 300 s; the lowest value is the default of %1 s</source>
        <translation>Wie lange eine Wiederholung wartet, bis die Antwort des Anbieters beginnt, 10 bis 300 s; der niedrigste Wert bedeutet den Standard von %1 s</translation>
    </message>
    <message>
        <source>Wait and retry when the provider says the token cap is reached</source>
        <translation>Warten und erneut versuchen, wenn der Anbieter meldet, dass die Token-Obergrenze erreicht ist</translation>
    </message>
    <message>
        <source>Wait and retry when the provider says too many requests were sent</source>
        <translation>Warten und erneut versuchen, wenn der Anbieter meldet, dass zu viele Anfragen gesendet wurden</translation>
    </message>
    <message>
        <source>Wait and retry on server errors and network failures</source>
        <translation>Bei Serverfehlern und Netzwerkausfällen warten und erneut versuchen</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::PriceOverridesBox</name>
    <message>
        <source>One row per model: its price per million input, output and cached input tokens, in USD; they win over the price table&apos;s</source>
        <translation>Eine Zeile pro Modell: sein Preis pro Million Eingabe-, Ausgabe- und Cache-Eingabe-Tokens, in USD; er hat Vorrang vor der Preistabelle</translation>
    </message>
    <message>
        <source>Prices</source>
        <translation>Preise</translation>
    </message>
    <message>
        <source>Add price</source>
        <translation>Preis hinzufügen</translation>
    </message>
    <message>
        <source>Remove price</source>
        <translation>Preis entfernen</translation>
    </message>
    <message>
        <source>This provider&apos;s own prices per million tokens, in USD, used instead of the price table&apos;s. Cached input may stay empty: it then costs as input.</source>
        <translation>Eigene Preise dieses Anbieters pro Million Tokens, in USD, statt der Preise der Preistabelle. „Eingabe (Cache)“ darf leer bleiben: Sie kostet dann wie Eingabe.</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>Eingabe</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>Ausgabe</translation>
    </message>
    <message>
        <source>Cached input</source>
        <translation>Eingabe (Cache)</translation>
    </message>
    <message>
        <source>The model name, as the provider expects it</source>
        <translation>Der Modellname, wie der Anbieter ihn erwartet</translation>
    </message>
    <message>
        <source>Per million prompt tokens</source>
        <translation>Pro Million Prompt-Tokens</translation>
    </message>
    <message>
        <source>Per million completion tokens</source>
        <translation>Pro Million Antwort-Tokens</translation>
    </message>
    <message>
        <source>Per million prompt tokens read from the provider&apos;s cache; empty: as input</source>
        <translation>Pro Million Prompt-Tokens aus dem Cache des Anbieters; leer: wie Eingabe</translation>
    </message>
    <message>
        <source>Prices of this provider</source>
        <translation>Preise dieses Anbieters</translation>
    </message>
    <message>
        <source>Add a row for a model&apos;s price, started with the profile&apos;s model</source>
        <translation>Eine Zeile für den Preis eines Modells hinzufügen, vorbelegt mit dem Modell des Profils</translation>
    </message>
    <message>
        <source>Remove the selected price</source>
        <translation>Den ausgewählten Preis entfernen</translation>
    </message>
    <message>
        <source>“%1” is not in the price table: without a price here, its costs show as tokens only.</source>
        <translation>„%1“ steht nicht in der Preistabelle: Ohne einen Preis hier werden seine Kosten nur als Tokens angezeigt.</translation>
    </message>
    <message>
        <source>Price table for “%1”: %2 / %3 per million tokens (input / output), %4 for cached input.</source>
        <translation>Preistabelle für „%1“: %2 / %3 pro Million Tokens (Eingabe / Ausgabe), %4 für Eingabe aus dem Cache.</translation>
    </message>
    <message>
        <source>Price table for “%1”: %2 / %3 per million tokens (input / output).</source>
        <translation>Preistabelle für „%1“: %2 / %3 pro Million Tokens (Eingabe / Ausgabe).</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ProfileController</name>
    <message>
        <source>The next send goes to %1</source>
        <translation>Die nächste Anfrage geht an %1</translation>
    </message>
    <message>
        <source>Prof&amp;ile:</source>
        <translation>Prof&amp;il:</translation>
    </message>
    <message>
        <source>Provider profile</source>
        <translation>Anbieterprofil</translation>
    </message>
    <message>
        <source>The provider profile of this conversation: its next send goes there (Ctrl+Shift+P)</source>
        <translation>Das Anbieterprofil dieser Unterhaltung: Die nächste Anfrage geht dorthin (Strg+Umschalt+P)</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::PromptBox</name>
    <message>
        <source>Ask something. Ctrl+Enter sends, Esc cancels.</source>
        <translation>Stellen Sie eine Frage. Strg+Eingabe sendet, Esc bricht ab.</translation>
    </message>
    <message>
        <source>&amp;Send</source>
        <translation>&amp;Senden</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>S&amp;topp</translation>
    </message>
    <message>
        <source>&amp;Retry now</source>
        <translation>&amp;Jetzt erneut versuchen</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>Prompt</translation>
    </message>
    <message>
        <source>Your message. Ctrl+Enter sends it, Esc cancels a send.</source>
        <translation>Ihre Nachricht. Strg+Eingabe sendet sie, Esc bricht eine laufende Anfrage ab.</translation>
    </message>
    <message>
        <source>Send the prompt (Ctrl+Enter)</source>
        <translation>Prompt senden (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Cancel the send in flight, including a retry wait (Esc)</source>
        <translation>Laufende Anfrage abbrechen, auch während einer Wartezeit (Esc)</translation>
    </message>
    <message>
        <source>Send the last failed prompt again now</source>
        <translation>Den zuletzt fehlgeschlagenen Prompt jetzt erneut senden</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::PromptMessage</name>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <source>Close the message</source>
        <translation>Meldung schließen</translation>
    </message>
    <message>
        <source>Act on the message shown above the prompt</source>
        <translation>Auf die Meldung über dem Prompt reagieren</translation>
    </message>
    <message>
        <source>Cancel &amp;editing</source>
        <translation>Bearbeiten &amp;abbrechen</translation>
    </message>
    <message>
        <source>Pro&amp;vider settings…</source>
        <translation>An&amp;bietereinstellungen…</translation>
    </message>
    <message>
        <source>&amp;Keep this limit</source>
        <translation>Dieses Limit über&amp;nehmen</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ProviderStatus</name>
    <message>
        <source>Endpoint</source>
        <translation>Endpunkt</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Key source</source>
        <translation>Schlüsselquelle</translation>
    </message>
    <message>
        <source>Endpoint: %1</source>
        <translation>Endpunkt: %1</translation>
    </message>
    <message>
        <source>embedded demo provider (%1)</source>
        <translation>integrierter Demo-Anbieter (%1)</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation>Modell: %1</translation>
    </message>
    <message>
        <source>Key: %1</source>
        <translation>Schlüssel: %1</translation>
    </message>
    <message>
        <source>Model: not set</source>
        <translation>Modell: nicht festgelegt</translation>
    </message>
    <message>
        <source>Key: none (loopback endpoint)</source>
        <translation>Schlüssel: keiner (Loopback-Endpunkt)</translation>
    </message>
    <message>
        <source>Key: missing (%1)</source>
        <translation>Schlüssel: fehlt (%1)</translation>
    </message>
    <message>
        <source>Provider profile</source>
        <translation>Anbieterprofil</translation>
    </message>
    <message>
        <source>Profile: %1</source>
        <translation>Profil: %1</translation>
    </message>
    <message>
        <source>Endpoint: %1 (this run)</source>
        <translation>Endpunkt: %1 (dieser Start)</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ProviderWindowPart</name>
    <message>
        <source>Provider window</source>
        <translation>Kontingentfenster des Anbieters</translation>
    </message>
    <message>
        <source>Tokens left in the provider&apos;s window</source>
        <translation>Verbleibende Tokens im Kontingentfenster des Anbieters</translation>
    </message>
    <message>
        <source>Share of the provider&apos;s token limit left</source>
        <translation>Verbleibender Anteil am Token-Limit des Anbieters</translation>
    </message>
    <message>
        <source>Requests left in the provider&apos;s window</source>
        <translation>Verbleibende Anfragen im Kontingentfenster des Anbieters</translation>
    </message>
    <message>
        <source>Share of the provider&apos;s request limit left</source>
        <translation>Verbleibender Anteil am Anfragelimit des Anbieters</translation>
    </message>
    <message>
        <source>Provider window reset</source>
        <translation>Zurücksetzung des Kontingentfensters</translation>
    </message>
    <message>
        <source>tokens in %1</source>
        <translation>Tokens in %1</translation>
    </message>
    <message>
        <source>tokens renewed</source>
        <translation>Tokens erneuert</translation>
    </message>
    <message>
        <source>requests in %1</source>
        <translation>Anfragen in %1</translation>
    </message>
    <message>
        <source>requests renewed</source>
        <translation>Anfragen erneuert</translation>
    </message>
    <message>
        <source>Resets: %1 · %2</source>
        <translation>Zurücksetzung: %1 · %2</translation>
    </message>
    <message>
        <source>Resets in %1</source>
        <translation>Zurücksetzung in %1</translation>
    </message>
    <message>
        <source>Window renewed since this report: the figures are out of date</source>
        <translation>Das Fenster wurde seit dieser Meldung erneuert: Die Werte sind veraltet</translation>
    </message>
    <message>
        <source>The provider reports no window.</source>
        <translation>Der Anbieter meldet kein Kontingentfenster.</translation>
    </message>
    <message>
        <source>Tokens left: %1</source>
        <translation>Verbleibende Tokens: %1</translation>
    </message>
    <message>
        <source>Requests left: %1</source>
        <translation>Verbleibende Anfragen: %1</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <comment>what is left of the provider&apos;s limit</comment>
        <translation>%1 von %2</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::ProvidersPage</name>
    <message>
        <source>1 model</source>
        <translation>1 Modell</translation>
    </message>
    <message numerus="yes">
        <source>%n models</source>
        <translation>
            <numerusform>%n Modell</numerusform>
            <numerusform>%n Modelle</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>&amp;Hinzufügen</translation>
    </message>
    <message>
        <source>D&amp;uplicate</source>
        <translation>&amp;Duplizieren</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>&amp;Löschen</translation>
    </message>
    <message>
        <source>Set as default</source>
        <translation>Als Standard festlegen</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>&amp;Aktualisieren</translation>
    </message>
    <message>
        <source>Environment &amp;variable:</source>
        <translation>&amp;Umgebungsvariable:</translation>
    </message>
    <message>
        <source>Key f&amp;ile:</source>
        <translation>S&amp;chlüsseldatei:</translation>
    </message>
    <message>
        <source>System &amp;keychain:</source>
        <translation>S&amp;ystem-Schlüsselbund:</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>Durch&amp;suchen…</translation>
    </message>
    <message>
        <source>&amp;Stream answers as they are written</source>
        <translation>Antworten &amp;fortlaufend anzeigen, während sie entstehen</translation>
    </message>
    <message>
        <source>Send to the fallback automatically</source>
        <translation>Automatisch an das Ausweichprofil senden</translation>
    </message>
    <message>
        <source>&amp;Profiles:</source>
        <translation>&amp;Profile:</translation>
    </message>
    <message>
        <source>Provider profiles</source>
        <translation>Anbieterprofile</translation>
    </message>
    <message>
        <source>The providers capwatch can send to; the selected one is edited on the right. Delete removes it</source>
        <translation>Die Anbieter, an die capwatch senden kann; der ausgewählte wird rechts bearbeitet. Entf entfernt ihn</translation>
    </message>
    <message>
        <source>Add a provider profile</source>
        <translation>Ein Anbieterprofil hinzufügen</translation>
    </message>
    <message>
        <source>Add a copy of the selected profile</source>
        <translation>Eine Kopie des ausgewählten Profils hinzufügen</translation>
    </message>
    <message>
        <source>Delete the selected profile; the built-in demo cannot be deleted</source>
        <translation>Das ausgewählte Profil löschen; die integrierte Demo kann nicht gelöscht werden</translation>
    </message>
    <message>
        <source>New conversations start with the selected profile</source>
        <translation>Neue Unterhaltungen beginnen mit dem ausgewählten Profil</translation>
    </message>
    <message>
        <source>This provider has no model list: type the model name</source>
        <translation>Dieser Anbieter hat keine Modellliste: Geben Sie den Modellnamen ein</translation>
    </message>
    <message>
        <source>model name, e.g. gpt-4o-mini</source>
        <translation>Modellname, z. B. gpt-4o-mini</translation>
    </message>
    <message>
        <source>paste a key to store it; leave empty to keep the stored one</source>
        <translation>Schlüssel zum Speichern einfügen; leer lassen, um den gespeicherten zu behalten</translation>
    </message>
    <message>
        <source>Name: value, one per line</source>
        <translation>Name: Wert, einer pro Zeile</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Unbekannt</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> Tokens</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Endpoint:</source>
        <translation>&amp;Endpunkt:</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>&amp;Modell:</translation>
    </message>
    <message>
        <source>API key (never stored in the settings file)</source>
        <translation>API-Schlüssel (wird nie in der Einstellungsdatei gespeichert)</translation>
    </message>
    <message>
        <source>E&amp;xtra headers:</source>
        <translation>&amp;Zusätzliche Header:</translation>
    </message>
    <message>
        <source>C&amp;ontext window:</source>
        <translation>&amp;Kontextfenster:</translation>
    </message>
    <message>
        <source>When this provider is capped</source>
        <translation>Wenn dieser Anbieter am Limit ist</translation>
    </message>
    <message>
        <source>&amp;Fallback:</source>
        <translation>Ausweichpr&amp;ofil:</translation>
    </message>
    <message>
        <source>Profile name</source>
        <translation>Profilname</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>Endpunkt</translation>
    </message>
    <message>
        <source>Base URL of an OpenAI-compatible API, or its chat/completions URL</source>
        <translation>Basis-URL einer OpenAI-kompatiblen API oder deren chat/completions-URL</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>The model name the provider expects: one it lists, or any name typed</source>
        <translation>Der Modellname, den der Anbieter erwartet: einer aus seiner Liste oder ein beliebiger eingegebener Name</translation>
    </message>
    <message>
        <source>Ask the provider again for the models it offers</source>
        <translation>Den Anbieter erneut nach seinen Modellen fragen</translation>
    </message>
    <message>
        <source>Environment variable holding the key</source>
        <translation>Umgebungsvariable, die den Schlüssel enthält</translation>
    </message>
    <message>
        <source>Key file path</source>
        <translation>Pfad der Schlüsseldatei</translation>
    </message>
    <message>
        <source>Key to store in the system keychain</source>
        <translation>Im System-Schlüsselbund zu speichernder Schlüssel</translation>
    </message>
    <message>
        <source>Choose the key file</source>
        <translation>Schlüsseldatei auswählen</translation>
    </message>
    <message>
        <source>Extra headers</source>
        <translation>Zusätzliche Header</translation>
    </message>
    <message>
        <source>Sent with every request to this provider, one &quot;Name: value&quot; per line</source>
        <translation>Wird mit jeder Anfrage an diesen Anbieter gesendet, ein „Name: Wert“ pro Zeile</translation>
    </message>
    <message>
        <source>Context window</source>
        <translation>Kontextfenster</translation>
    </message>
    <message>
        <source>The model&apos;s context window in tokens; 0 when unknown</source>
        <translation>Das Kontextfenster des Modells in Tokens; 0, wenn unbekannt</translation>
    </message>
    <message>
        <source>Fallback profile</source>
        <translation>Ausweichprofil</translation>
    </message>
    <message>
        <source>Where a send may go instead when this provider caps it</source>
        <translation>Wohin eine Anfrage stattdessen gehen kann, wenn sie bei diesem Anbieter am Limit scheitert</translation>
    </message>
    <message>
        <source>When a send is capped, send it to the fallback without asking</source>
        <translation>Scheitert eine Anfrage am Limit, sie ohne Nachfrage an das Ausweichprofil senden</translation>
    </message>
    <message>
        <source>Stream answers</source>
        <translation>Antworten streamen</translation>
    </message>
    <message>
        <source>(no name)</source>
        <translation>(ohne Namen)</translation>
    </message>
    <message>
        <source>%1 (built-in, default)</source>
        <translation>%1 (integriert, Standard)</translation>
    </message>
    <message>
        <source>%1 (built-in)</source>
        <translation>%1 (integriert)</translation>
    </message>
    <message>
        <source>%1 (default)</source>
        <translation>%1 (Standard)</translation>
    </message>
    <message>
        <source>The provider named %1 tokens.</source>
        <translation>Der Anbieter hat %1 Tokens angegeben.</translation>
    </message>
    <message>
        <source>The model&apos;s context window in tokens; 0 when unknown. %1</source>
        <translation>Das Kontextfenster des Modells in Tokens; 0, wenn unbekannt. %1</translation>
    </message>
    <message>
        <source>The settings file has problems with this profile:
%1</source>
        <translation>Die Einstellungsdatei hat Probleme mit diesem Profil:
%1</translation>
    </message>
    <message>
        <source>Refresh asks the provider for its models.</source>
        <translation>„Aktualisieren“ fragt den Anbieter nach seinen Modellen.</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Keines</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>New provider</source>
        <translation>Neuer Anbieter</translation>
    </message>
    <message>
        <source>%1 (copy)</source>
        <translation>%1 (Kopie)</translation>
    </message>
    <message>
        <source>system keychain</source>
        <translation>System-Schlüsselbund</translation>
    </message>
    <message>
        <source>Enter the endpoint first: its model list comes from there.</source>
        <translation>Geben Sie zuerst den Endpunkt ein: Die Modellliste kommt von dort.</translation>
    </message>
    <message>
        <source>Asking the provider for its models…</source>
        <translation>Der Anbieter wird nach seinen Modellen gefragt…</translation>
    </message>
    <message>
        <source>The endpoint must be an http:// or https:// URL.</source>
        <translation>Der Endpunkt muss eine http://- oder https://-URL sein.</translation>
    </message>
    <message>
        <source>Name the model the provider should use.</source>
        <translation>Geben Sie das Modell an, das der Anbieter verwenden soll.</translation>
    </message>
    <message>
        <source>Name the environment variable that holds the key.</source>
        <translation>Geben Sie die Umgebungsvariable an, die den Schlüssel enthält.</translation>
    </message>
    <message>
        <source>Choose the key file.</source>
        <translation>Wählen Sie die Schlüsseldatei aus.</translation>
    </message>
    <message>
        <source>Line %1 of the extra headers is not &quot;Name: value&quot;.</source>
        <translation>Zeile %1 der zusätzlichen Header hat nicht die Form „Name: Wert“.</translation>
    </message>
    <message>
        <source>Give the profile a name.</source>
        <translation>Geben Sie dem Profil einen Namen.</translation>
    </message>
    <message>
        <source>Another profile is already named “%1”.</source>
        <translation>Ein anderes Profil heißt bereits „%1“.</translation>
    </message>
    <message>
        <source>No model list (%1): type the model name</source>
        <translation>Keine Modellliste (%1): Geben Sie den Modellnamen ein</translation>
    </message>
    <message>
        <source>%1 from the last list; the provider does not answer now (%2)</source>
        <translation>%1 aus der letzten Liste; der Anbieter antwortet gerade nicht (%2)</translation>
    </message>
    <message>
        <source>Not asked for its models: the endpoint uses plain HTTP, and the key would travel unencrypted. Refresh asks first.</source>
        <translation>Nicht nach seinen Modellen gefragt: Der Endpunkt verwendet unverschlüsseltes HTTP, und der Schlüssel würde unverschlüsselt übertragen. Aktualisieren fragt zuerst nach.</translation>
    </message>
    <message>
        <source>Waiting for your answer: send the key unencrypted?</source>
        <translation>Wartet auf Ihre Antwort: den Schlüssel unverschlüsselt senden?</translation>
    </message>
    <message>
        <source>Not asked for its models: the key stays unsent.</source>
        <translation>Nicht nach seinen Modellen gefragt: Der Schlüssel wird nicht gesendet.</translation>
    </message>
    <message>
        <source>Row %1 of the prices names no model.</source>
        <translation>Zeile %1 der Preise nennt kein Modell.</translation>
    </message>
    <message>
        <source>Row %1 of the prices: a model name is at most %2 characters.</source>
        <translation>Zeile %1 der Preise: Ein Modellname hat höchstens %2 Zeichen.</translation>
    </message>
    <message>
        <source>Row %1 of the prices needs an input price.</source>
        <translation>Zeile %1 der Preise braucht einen Eingabepreis.</translation>
    </message>
    <message>
        <source>Row %1 of the prices needs an output price.</source>
        <translation>Zeile %1 der Preise braucht einen Ausgabepreis.</translation>
    </message>
    <message>
        <source>Row %1 of the prices: “%2” is not a price from 0 to %3 per million tokens.</source>
        <translation>Zeile %1 der Preise: „%2“ ist kein Preis von 0 bis %3 pro Million Tokens.</translation>
    </message>
    <message>
        <source>Row %1 of the prices: “%2” has a price already.</source>
        <translation>Zeile %1 der Preise: „%2“ hat bereits einen Preis.</translation>
    </message>
    <message>
        <source>The built-in demo provider runs inside capwatch: it needs no account and no key. Its retry policy, fallback, limits and prices can be changed.</source>
        <translation>Der integrierte Demo-Anbieter läuft innerhalb von capwatch: Er braucht kein Konto und keinen Schlüssel. Seine Wiederholungsrichtlinie, sein Ausweichprofil, seine Limits und Preise lassen sich ändern.</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::RequestOptionsRow</name>
    <message>
        <source>Request &amp;options</source>
        <translation>Anfrage&amp;optionen</translation>
    </message>
    <message>
        <source>Request options</source>
        <translation>Anfrageoptionen</translation>
    </message>
    <message>
        <source>Show or hide the system prompt, the answer&apos;s length limit and the temperature</source>
        <translation>Systemprompt, Längenbegrenzung der Antwort und Temperatur ein- oder ausblenden</translation>
    </message>
    <message>
        <source>S&amp;ystem prompt:</source>
        <translation>S&amp;ystemprompt:</translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation>Systemprompt</translation>
    </message>
    <message>
        <source>Sent before the conversation with every request</source>
        <translation>Wird bei jeder Anfrage vor der Unterhaltung gesendet</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Keiner</translation>
    </message>
    <message>
        <source>&amp;Max tokens:</source>
        <translation>&amp;Max. Tokens:</translation>
    </message>
    <message>
        <source>Max tokens</source>
        <translation>Max. Tokens</translation>
    </message>
    <message>
        <source>The longest answer, in tokens; Default leaves it to the provider</source>
        <translation>Längste Antwort in Tokens; „Standard“ überlässt es dem Anbieter</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>Tem&amp;perature:</source>
        <translation>Tem&amp;peratur:</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatur</translation>
    </message>
    <message>
        <source>Sampling temperature, 0 to 2; Default leaves it to the provider</source>
        <translation>Sampling-Temperatur, 0 bis 2; „Standard“ überlässt sie dem Anbieter</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::RetryLogModel</name>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Anfrage</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Ereignis</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>Versuch</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>Kategorie</translation>
    </message>
    <message>
        <source>Used</source>
        <translation>Verbraucht</translation>
    </message>
    <message>
        <source>Limit</source>
        <translation>Limit</translation>
    </message>
    <message>
        <source>Wait (s)</source>
        <translation>Wartezeit (s)</translation>
    </message>
    <message>
        <source>Asked (s)</source>
        <translation>Verlangt (s)</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Waited (s)</source>
        <translation>Gewartet (s)</translation>
    </message>
    <message>
        <source>Budget left (s)</source>
        <translation>Restbudget (s)</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Resets at</source>
        <translation>Zurücksetzung um</translation>
    </message>
    <message>
        <source>Waited for the provider&apos;s window to reset before attempt 1; not counted in the retry budget</source>
        <translation>Vor Versuch 1 gewartet, bis das Kontingentfenster des Anbieters zurückgesetzt war; zählt nicht zum Wiederholungsbudget</translation>
    </message>
    <message>
        <source>Tokens left in the provider&apos;s window, as the provider last reported it</source>
        <translation>Verbleibende Tokens im Kontingentfenster des Anbieters, laut seiner letzten Meldung</translation>
    </message>
    <message>
        <source>Seconds until the provider&apos;s window resets, as last reported</source>
        <translation>Sekunden bis zur Zurücksetzung des Kontingentfensters, laut letzter Meldung</translation>
    </message>
    <message>
        <source>The request&apos;s estimated tokens: prompt, context and completion</source>
        <translation>Geschätzte Tokens der Anfrage: Prompt, Kontext und Antwort</translation>
    </message>
    <message>
        <source>Window tokens left</source>
        <translation>Rest-Tokens im Fenster</translation>
    </message>
    <message>
        <source>Window reset (s)</source>
        <translation>Fenster-Reset (s)</translation>
    </message>
    <message>
        <source>Estimated tokens</source>
        <translation>Geschätzte Tokens</translation>
    </message>
    <message>
        <source>The send ended capped; its prompt goes to the profile %1 instead</source>
        <translation>Die Anfrage endete am Limit; ihr Prompt geht stattdessen an das Profil %1</translation>
    </message>
    <message>
        <source>The profile the prompt went to after this send ended capped</source>
        <translation>Das Profil, an das der Prompt ging, nachdem diese Anfrage am Limit endete</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>Profil</translation>
    </message>
    <message>
        <source>Fallback to</source>
        <translation>Ausweichen auf</translation>
    </message>
    <message>
        <source>complete</source>
        <translation>vollständig</translation>
    </message>
    <message>
        <source>cut off</source>
        <translation>abgeschnitten</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>unterbrochen</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>leer</translation>
    </message>
    <message>
        <source>The answer stopped after it began; what came is kept, and Continue goes on from it</source>
        <translation>Die Antwort brach ab, nachdem sie begonnen hatte; was kam, bleibt erhalten, und „Fortsetzen“ macht dort weiter</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>Antwort</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::RetryPanel</name>
    <message>
        <source>Retry cycle</source>
        <translation>Wiederholungszyklus</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>Versuch</translation>
    </message>
    <message>
        <source>Tokens used / limit</source>
        <translation>Verbrauchte Tokens / Limit</translation>
    </message>
    <message>
        <source>Next retry in</source>
        <translation>Nächste Wiederholung in</translation>
    </message>
    <message>
        <source>Retry budget left</source>
        <translation>Verbleibendes Wiederholungsbudget</translation>
    </message>
    <message>
        <source>Wait came from</source>
        <translation>Herkunft der Wartezeit</translation>
    </message>
    <message>
        <source>Retry panel</source>
        <translation>Wiederholungsanzeige</translation>
    </message>
    <message>
        <source>The live state of the current send&apos;s retries</source>
        <translation>Aktueller Stand der Wiederholungen der laufenden Anfrage</translation>
    </message>
    <message>
        <source>Send state</source>
        <translation>Status der Anfrage</translation>
    </message>
    <message>
        <source>Attempts used</source>
        <translation>Verbrauchte Versuche</translation>
    </message>
    <message>
        <source>Tokens used and limit</source>
        <translation>Verbrauchte Tokens und Limit</translation>
    </message>
    <message>
        <source>Tokens used of the limit</source>
        <translation>Anteil der verbrauchten Tokens am Limit</translation>
    </message>
    <message>
        <source>Wait progress</source>
        <translation>Fortschritt der Wartezeit</translation>
    </message>
    <message>
        <source>Where the wait came from</source>
        <translation>Woher die Wartezeit stammt</translation>
    </message>
    <message>
        <source>Last failure</source>
        <translation>Letzter Fehler</translation>
    </message>
    <message>
        <source>Retry budget left of %1 seconds</source>
        <translation>Verbleibendes Wiederholungsbudget von %1 Sekunden</translation>
    </message>
    <message>
        <source>Provider&apos;s reset in</source>
        <translation>Zurücksetzung des Anbieterlimits in</translation>
    </message>
    <message>
        <source>Send no&amp;w</source>
        <translation>So&amp;fort senden</translation>
    </message>
    <message>
        <source>Send now</source>
        <translation>Sofort senden</translation>
    </message>
    <message>
        <source>Sends without waiting for the provider&apos;s window to reset</source>
        <translation>Sendet, ohne auf die Zurücksetzung des Kontingentfensters zu warten</translation>
    </message>
    <message>
        <source>Sending in</source>
        <translation>Senden in</translation>
    </message>
    <message>
        <source>Send at the provider&apos;s reset</source>
        <translation>Beim Zurücksetzen des Anbieters senden</translation>
    </message>
    <message>
        <source>Stops retrying and parks the send until the provider&apos;s reset, when it goes out by itself</source>
        <translation>Beendet die Wiederholungen und parkt die Anfrage bis zum Zurücksetzen des Anbieters; dann geht sie von selbst hinaus</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::SearchResultsModel</name>
    <message>
        <source>Untitled conversation</source>
        <translation>Unbenannte Unterhaltung</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::SendStatus</name>
    <message>
        <source>Send in flight</source>
        <translation>Laufende Anfrage</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::Settings</name>
    <message>
        <source>key file %1</source>
        <translation>Schlüsseldatei %1</translation>
    </message>
    <message>
        <source>system keychain</source>
        <translation>System-Schlüsselbund</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::SettingsDialog</name>
    <message>
        <source>Storing the key in the system keychain…</source>
        <translation>Schlüssel wird im System-Schlüsselbund gespeichert…</translation>
    </message>
    <message>
        <source>The key was not stored: %1. Your settings are unchanged: choose another key source, or try again.</source>
        <translation>Der Schlüssel wurde nicht gespeichert: %1. Ihre Einstellungen sind unverändert: Wählen Sie eine andere Schlüsselquelle oder versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>Checking the system keychain…</source>
        <translation>System-Schlüsselbund wird geprüft…</translation>
    </message>
    <message>
        <source>The system keychain cannot be used: %1. Your settings are unchanged: paste a key to store it, or choose another key source.</source>
        <translation>Der System-Schlüsselbund kann nicht verwendet werden: %1. Ihre Einstellungen sind unverändert: Fügen Sie einen Schlüssel zum Speichern ein oder wählen Sie eine andere Schlüsselquelle.</translation>
    </message>
    <message>
        <source>the stored key is empty</source>
        <translation>der gespeicherte Schlüssel ist leer</translation>
    </message>
    <message>
        <source>&amp;Ask each time</source>
        <translation>&amp;Jedes Mal fragen</translation>
    </message>
    <message>
        <source>&amp;Park automatically until the reset</source>
        <translation>Bis zur Zurücksetzung automatisch &amp;parken</translation>
    </message>
    <message>
        <source>&amp;Give up</source>
        <translation>&amp;Aufgeben</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Retries</source>
        <translation>Wiederholungen</translation>
    </message>
    <message>
        <source>When the provider&apos;s reset is beyond the retry budget:</source>
        <translation>Wenn das Limit des Anbieters erst nach Ablauf des Wiederholungsbudgets zurückgesetzt wird:</translation>
    </message>
    <message>
        <source>Ask each time</source>
        <translation>Jedes Mal fragen</translation>
    </message>
    <message>
        <source>%1 offer to send it again at the reset, beside Retry now</source>
        <translation>%1 neben „Jetzt erneut versuchen“ anbieten, die Anfrage bei der Zurücksetzung erneut zu senden</translation>
    </message>
    <message>
        <source>Park automatically until the reset</source>
        <translation>Bis zur Zurücksetzung automatisch parken</translation>
    </message>
    <message>
        <source>%1 wait for the reset and send it again then, without asking</source>
        <translation>%1 ohne Nachfrage auf die Zurücksetzung warten und die Anfrage dann erneut senden</translation>
    </message>
    <message>
        <source>Give up</source>
        <translation>Aufgeben</translation>
    </message>
    <message>
        <source>%1 give up, as within the budget; Retry now sends it again</source>
        <translation>%1 aufgeben, wie innerhalb des Budgets; „Jetzt erneut versuchen“ sendet sie erneut</translation>
    </message>
    <message>
        <source>Pa&amp;ce sends so the provider&apos;s window is not exceeded</source>
        <translation>Anfragen d&amp;rosseln, damit das Kontingentfenster des Anbieters nicht überschritten wird</translation>
    </message>
    <message>
        <source>Pace sends</source>
        <translation>Anfragen drosseln</translation>
    </message>
    <message>
        <source>Before a send, wait up to 60 s for the provider&apos;s window to reset when its last report says the send will not fit</source>
        <translation>Vor einer Anfrage bis zu 60 s auf die Zurücksetzung des Kontingentfensters warten, wenn die Anfrage laut letzter Meldung des Anbieters nicht mehr hineinpasst</translation>
    </message>
    <message>
        <source>Leave out the oldest turns automatically</source>
        <translation>Älteste Gesprächsrunden automatisch weglassen</translation>
    </message>
    <message>
        <source>When a conversation outgrows the model&apos;s context, leave out its oldest turns without asking; the conversation says what was left out</source>
        <translation>Wenn eine Unterhaltung den Kontext des Modells übersteigt, ihre ältesten Gesprächsrunden ohne Nachfrage weglassen; die Unterhaltung zeigt an, was weggelassen wurde</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>&amp;Leave out the oldest turns automatically</source>
        <translation>Älteste Gesprächsrunden automatisch weg&amp;lassen</translation>
    </message>
    <message>
        <source>When a conversation outgrows the model&apos;s context; the conversation says what was left out.</source>
        <translation>Wenn eine Unterhaltung den Kontext des Modells übersteigt; die Unterhaltung zeigt an, was weggelassen wurde.</translation>
    </message>
    <message>
        <source>The numbers of the retry policy (waits, budget, attempts) are each provider&apos;s: Providers, Retry policy.</source>
        <translation>Die Werte der Wiederholungsrichtlinie (Wartezeiten, Budget, Versuche) gelten je Anbieter: Anbieter, Wiederholungsrichtlinie.</translation>
    </message>
    <message>
        <source>Providers</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Storing the key of “%1” in the system keychain…</source>
        <translation>Der Schlüssel von „%1“ wird im System-Schlüsselbund gespeichert…</translation>
    </message>
    <message>
        <source>The key of “%1” was not stored: %2. Your settings are unchanged: choose another key source, or try again.</source>
        <translation>Der Schlüssel von „%1“ wurde nicht gespeichert: %2. Ihre Einstellungen sind unverändert: Wählen Sie eine andere Schlüsselquelle oder versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>Checking the system keychain for “%1”…</source>
        <translation>Der System-Schlüsselbund wird für „%1“ geprüft…</translation>
    </message>
    <message>
        <source>The system keychain cannot be used for “%1”: %2. Your settings are unchanged: paste a key to store it, or choose another key source.</source>
        <translation>Der System-Schlüsselbund kann für „%1“ nicht verwendet werden: %2. Ihre Einstellungen sind unverändert: Fügen Sie einen Schlüssel zum Speichern ein oder wählen Sie eine andere Schlüsselquelle.</translation>
    </message>
    <message>
        <source>Answers</source>
        <translation>Antworten</translation>
    </message>
    <message>
        <source>Contin&amp;ue answers cut off at the output limit by themselves:</source>
        <translation>Am Ausgabelimit abgeschnittene Antworten selbsttätig &amp;fortsetzen:</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>Nie</translation>
    </message>
    <message>
        <source>Once</source>
        <translation>Einmal</translation>
    </message>
    <message>
        <source>Up to %1 times in a row</source>
        <translation>Bis zu %1-mal hintereinander</translation>
    </message>
    <message>
        <source>An interrupted answer is never continued by itself: Continue under it goes on with it.</source>
        <translation>Eine unterbrochene Antwort wird nie selbsttätig fortgesetzt: „Fortsetzen“ unter ihr macht mit ihr weiter.</translation>
    </message>
    <message>
        <source>Continue cut-off answers by themselves</source>
        <translation>Abgeschnittene Antworten selbsttätig fortsetzen</translation>
    </message>
    <message>
        <source>How many times in a row an answer cut off at the output limit is continued without asking; what comes joins the same answer</source>
        <translation>Wie oft hintereinander eine am Ausgabelimit abgeschnittene Antwort ohne Nachfrage fortgesetzt wird; was kommt, wird an dieselbe Antwort angefügt</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::SpendGauges</name>
    <message>
        <source>%1 · money today</source>
        <translation>%1 · Kosten heute</translation>
    </message>
    <message>
        <source>%1 · money this month</source>
        <translation>%1 · Kosten diesen Monat</translation>
    </message>
    <message>
        <source>%1 · tokens today</source>
        <translation>%1 · Tokens heute</translation>
    </message>
    <message>
        <source>%1 · tokens this month</source>
        <translation>%1 · Tokens diesen Monat</translation>
    </message>
    <message>
        <source>Reached; it resets %1.</source>
        <translation>Erreicht; Zurücksetzung: %1.</translation>
    </message>
    <message>
        <source>At this rate the daily limit is reached at %1.</source>
        <translation>Bei diesem Tempo ist das Tageslimit um %1 erreicht.</translation>
    </message>
    <message>
        <source>At this rate the monthly limit is reached on %1.</source>
        <translation>Bei diesem Tempo ist das Monatslimit am %1 erreicht.</translation>
    </message>
    <message>
        <source>At this rate it is not reached today.</source>
        <translation>Bei diesem Tempo wird es heute nicht erreicht.</translation>
    </message>
    <message>
        <source>At this rate it is not reached this month.</source>
        <translation>Bei diesem Tempo wird es diesen Monat nicht erreicht.</translation>
    </message>
    <message>
        <source>Nothing used yet.</source>
        <translation>Noch nichts verbraucht.</translation>
    </message>
    <message>
        <source>%1 of %2 (%3 %)</source>
        <translation>%1 von %2 (%3 %)</translation>
    </message>
    <message>
        <source>No profile has a spending limit. Set one in Settings → Providers → Spending limits.</source>
        <translation>Kein Profil hat ein Verbrauchslimit. Legen Sie eines unter Einstellungen → Anbieter → Verbrauchslimits fest.</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::SpendStatus</name>
    <message>
        <source>Today: %1 · %2 tokens</source>
        <translation>Heute: %1 · %2 Tokens</translation>
    </message>
    <message>
        <source>Today: %1 tokens</source>
        <translation>Heute: %1 Tokens</translation>
    </message>
    <message>
        <source>Today: %1 of %2 tokens</source>
        <translation>Heute: %1 von %2 Tokens</translation>
    </message>
    <message>
        <source>This month: %1 of %2 tokens</source>
        <translation>Diesen Monat: %1 von %2 Tokens</translation>
    </message>
    <message>
        <source>Today: %1 of %2</source>
        <translation>Heute: %1 von %2</translation>
    </message>
    <message>
        <source>This month: %1 of %2</source>
        <translation>Diesen Monat: %1 von %2</translation>
    </message>
    <message>
        <source>Spending limit reached: %1</source>
        <translation>Verbrauchslimit erreicht: %1</translation>
    </message>
    <message>
        <source>%1 % of a spending limit used: %2</source>
        <translation>%1 % eines Verbrauchslimits verbraucht: %2</translation>
    </message>
    <message>
        <source>Billed by the provider: %1</source>
        <translation>Vom Anbieter abgerechnet: %1</translation>
    </message>
    <message>
        <source>Estimated from prices: %1</source>
        <translation>Aus Preisen geschätzt: %1</translation>
    </message>
    <message>
        <source>Attempts with no known price: %1</source>
        <translation>Versuche ohne bekannten Preis: %1</translation>
    </message>
    <message>
        <source>Usage today</source>
        <translation>Heutiger Verbrauch</translation>
    </message>
    <message>
        <source>%1 today. Requests: %2; tokens: %3</source>
        <translation>%1 heute. Anfragen: %2; Tokens: %3</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::SystemKeychain</name>
    <message>
        <source>no key is stored in the system keychain</source>
        <translation>im System-Schlüsselbund ist kein Schlüssel gespeichert</translation>
    </message>
    <message>
        <source>the system keychain is not available: %1</source>
        <translation>der System-Schlüsselbund ist nicht verfügbar: %1</translation>
    </message>
</context>
<context>
    <name>capwatch::ui::TimelineWidget</name>
    <message>
        <source>attempt %1</source>
        <translation>Versuch %1</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>Send %1</source>
        <translation>Anfrage %1</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>erfolgreich</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>gave up</source>
        <translation>aufgegeben</translation>
    </message>
    <message>
        <source>gave up: %1</source>
        <translation>aufgegeben: %1</translation>
    </message>
    <message>
        <source>waiting…</source>
        <translation>wartet…</translation>
    </message>
    <message>
        <source>sending…</source>
        <translation>sendet…</translation>
    </message>
    <message>
        <source>attempts: %1</source>
        <translation>Versuche: %1</translation>
    </message>
    <message>
        <source>%1 · %2 of %3</source>
        <translation>%1 · %2 von %3</translation>
    </message>
    <message>
        <source>%1 · wait %2</source>
        <translation>%1 · Wartezeit %2</translation>
    </message>
    <message>
        <source>%1 · waited %2</source>
        <translation>%1 · gewartet %2</translation>
    </message>
    <message>
        <source>budget %1</source>
        <translation>Budget %1</translation>
    </message>
    <message>
        <source>Retry timeline</source>
        <translation>Zeitleiste der Wiederholungen</translation>
    </message>
    <message>
        <source>Attempts and waits of each send against the %1 retry budget. No sends yet.</source>
        <translation>Versuche und Wartezeiten jeder Anfrage im Verhältnis zum Wiederholungsbudget von %1. Noch keine Anfragen.</translation>
    </message>
    <message>
        <source>Sends in this session: %1. Latest, send %2: attempts: %3, waited %4 of the %5 budget, %6.</source>
        <translation>Anfragen in dieser Sitzung: %1. Zuletzt Anfrage %2: Versuche: %3, %4 von %5 Budget gewartet, %6.</translation>
    </message>
    <message>
        <source>Send %1 · attempt %2 of %3</source>
        <translation>Anfrage %1 · Versuch %2 von %3</translation>
    </message>
    <message>
        <source>Sent after:</source>
        <translation>Gesendet nach:</translation>
    </message>
    <message>
        <source>%1 of scheduled waiting</source>
        <translation>%1 geplanter Wartezeit</translation>
    </message>
    <message>
        <source>Status:</source>
        <translation>Status:</translation>
    </message>
    <message>
        <source>waiting for the response</source>
        <translation>wartet auf die Antwort</translation>
    </message>
    <message>
        <source>no HTTP status</source>
        <translation>kein HTTP-Status</translation>
    </message>
    <message>
        <source>Category:</source>
        <translation>Kategorie:</translation>
    </message>
    <message>
        <source>?</source>
        <translation>?</translation>
    </message>
    <message>
        <source>Tokens:</source>
        <translation>Tokens:</translation>
    </message>
    <message>
        <source>%1 used, limit %2</source>
        <translation>%1 verbraucht, Limit %2</translation>
    </message>
    <message>
        <source>Error:</source>
        <translation>Fehler:</translation>
    </message>
    <message>
        <source>Send %1 · wait after attempt %2</source>
        <translation>Anfrage %1 · Wartezeit nach Versuch %2</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>Quelle:</translation>
    </message>
    <message>
        <source>Asked for:</source>
        <translation>Verlangt:</translation>
    </message>
    <message>
        <source>Wait:</source>
        <translation>Wartezeit:</translation>
    </message>
    <message>
        <source>%1 (capped at %2 per wait)</source>
        <translation>%1 (begrenzt auf %2 pro Wartezeit)</translation>
    </message>
    <message>
        <source>Budget:</source>
        <translation>Budget:</translation>
    </message>
    <message>
        <source>%1 waited, %2 left of %3</source>
        <translation>%1 gewartet, %2 von %3 übrig</translation>
    </message>
    <message>
        <source>Elapsed:</source>
        <translation>Verstrichen:</translation>
    </message>
    <message>
        <source>After:</source>
        <translation>Nach:</translation>
    </message>
    <message>
        <source>%1 failed with %2</source>
        <translation>%1 fehlgeschlagen mit %2</translation>
    </message>
    <message>
        <source>Started %1</source>
        <translation>Gestartet um %1</translation>
    </message>
    <message>
        <source>per-wait cap</source>
        <translation>Obergrenze pro Wartezeit</translation>
    </message>
    <message>
        <source>No sends yet</source>
        <translation>Noch keine Anfragen</translation>
    </message>
    <message>
        <source>Scroll the sends</source>
        <translation>Durch die Anfragen blättern</translation>
    </message>
    <message>
        <source>Cancelled:</source>
        <translation>Abgebrochen:</translation>
    </message>
    <message>
        <source>after %1 of the wait</source>
        <translation>nach %1 der Wartezeit</translation>
    </message>
    <message>
        <source>parked</source>
        <translation>geparkt</translation>
    </message>
    <message>
        <source>parked until %1: it goes out again at the provider&apos;s reset</source>
        <translation>geparkt bis %1: wird bei der Zurücksetzung des Anbieterlimits erneut gesendet</translation>
    </message>
    <message>
        <source>It is send %1 again, after it was parked.</source>
        <translation>Dabei handelt es sich um Anfrage %1, nach dem Parken erneut gesendet.</translation>
    </message>
    <message>
        <source>Send %1 is %2.</source>
        <translation>Anfrage %1 ist %2.</translation>
    </message>
    <message>
        <source>Send %1 · parked</source>
        <translation>Anfrage %1 · geparkt</translation>
    </message>
    <message>
        <source>Parked:</source>
        <translation>Geparkt:</translation>
    </message>
    <message>
        <source>Until:</source>
        <translation>Bis:</translation>
    </message>
    <message>
        <source>%1, the provider&apos;s reset</source>
        <translation>%1, Zurücksetzung des Anbieterlimits</translation>
    </message>
    <message>
        <source>the provider&apos;s reset</source>
        <translation>Zurücksetzung des Anbieterlimits</translation>
    </message>
    <message>
        <source>Then:</source>
        <translation>Danach:</translation>
    </message>
    <message>
        <source>it goes out again with a fresh retry cycle</source>
        <translation>wird mit einem neuen Wiederholungszyklus erneut gesendet</translation>
    </message>
    <message>
        <source>Left the queue:</source>
        <translation>Warteschlange verlassen:</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>Sent again:</source>
        <translation>Erneut gesendet:</translation>
    </message>
    <message>
        <source>as send %1</source>
        <translation>als Anfrage %1</translation>
    </message>
    <message>
        <source>Outside the budget:</source>
        <translation>Außerhalb des Budgets:</translation>
    </message>
    <message>
        <source>after %1 of waiting, %2</source>
        <translation>nach %1 Wartezeit, %2</translation>
    </message>
    <message>
        <source>capped</source>
        <translation>am Limit</translation>
    </message>
    <message>
        <source>Send %1 again, after it was parked</source>
        <translation>Anfrage %1, nach dem Parken erneut gesendet</translation>
    </message>
    <message>
        <source>Before its first attempt it waited %1 for the provider&apos;s window, outside the budget.</source>
        <translation>Vor ihrem ersten Versuch wartete sie %1 auf das Kontingentfenster des Anbieters, außerhalb des Budgets.</translation>
    </message>
    <message>
        <source>Send %1 · paced</source>
        <translation>Anfrage %1 · gedrosselt</translation>
    </message>
    <message>
        <source>Waited for:</source>
        <translation>Gewartet auf:</translation>
    </message>
    <message>
        <source>the provider&apos;s window to reset, before attempt 1</source>
        <translation>Zurücksetzung des Kontingentfensters, vor Versuch 1</translation>
    </message>
    <message>
        <source>Estimated tokens:</source>
        <translation>Geschätzte Tokens:</translation>
    </message>
    <message>
        <source>Tokens left in the window:</source>
        <translation>Verbleibende Tokens im Fenster:</translation>
    </message>
    <message>
        <source>pacing does not spend the %1 of retry waiting</source>
        <translation>Drosselung verbraucht nichts von den %1 Wartezeit für Wiederholungen</translation>
    </message>
    <message>
        <source>%1 · → %2</source>
        <translation>%1 · → %2</translation>
    </message>
    <message>
        <source>Send %1 was capped and went to %2 instead.</source>
        <translation>Anfrage %1 war am Limit und ging stattdessen an %2.</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>unterbrochen</translation>
    </message>
    <message>
        <source>interrupted: its answer stopped part-way and what came is kept; %1</source>
        <translation>unterbrochen: die Antwort brach mittendrin ab, was kam, bleibt erhalten; %1</translation>
    </message>
    <message>
        <source>Answer:</source>
        <translation>Antwort:</translation>
    </message>
    <message>
        <source>interrupted after it began; what came is kept</source>
        <translation>nach ihrem Beginn unterbrochen; was kam, bleibt erhalten</translation>
    </message>
</context>
<context>
    <name>cli</name>
    <message>
        <source>Show this help.</source>
        <translation>Diese Hilfe anzeigen.</translation>
    </message>
    <message>
        <source>Classify one provider response without sending anything.</source>
        <translation>Eine Antwort des Anbieters einordnen, ohne etwas zu senden.</translation>
    </message>
    <message>
        <source>HTTP status of the response (100-999).</source>
        <translation>HTTP-Status der Antwort (100–999).</translation>
    </message>
    <message>
        <source>The response body. Without --body or --body-file it is read from standard input.</source>
        <translation>Der Antworttext. Ohne --body oder --body-file wird er von der Standardeingabe gelesen.</translation>
    </message>
    <message>
        <source>Read the response body from a file, byte for byte.</source>
        <translation>Den Antworttext Byte für Byte aus einer Datei lesen.</translation>
    </message>
    <message>
        <source>Which retry the backoff is computed for (default 1).</source>
        <translation>Für welche Wiederholung der Backoff berechnet wird (Standard: 1).</translation>
    </message>
    <message>
        <source>capwatch-cli talks to OpenAI-compatible providers that enforce token caps, and retries token-limit errors the way the capwatch retry policy says.</source>
        <translation>capwatch-cli kommuniziert mit OpenAI-kompatiblen Anbietern, die Token-Obergrenzen durchsetzen, und wiederholt Token-Limit-Fehler so, wie es die Wiederholungsrichtlinie von capwatch vorschreibt.</translation>
    </message>
    <message>
        <source>Commands:</source>
        <translation>Befehle:</translation>
    </message>
    <message>
        <source>Options:</source>
        <translation>Optionen:</translation>
    </message>
    <message>
        <source>Show the version.</source>
        <translation>Die Version anzeigen.</translation>
    </message>
    <message>
        <source>&apos;capwatch-cli COMMAND --help&apos; describes a command.</source>
        <translation>„capwatch-cli COMMAND --help“ beschreibt einen Befehl.</translation>
    </message>
    <message>
        <source>Send one prompt to an OpenAI-compatible endpoint, retrying by the capwatch policy.</source>
        <translation>Einen Prompt an einen OpenAI-kompatiblen Endpunkt senden und nach der Richtlinie von capwatch wiederholen.</translation>
    </message>
    <message>
        <source>Base URL (http://host:port/v1) or the full .../chat/completions URL.</source>
        <translation>Basis-URL (http://host:port/v1) oder die vollständige .../chat/completions-URL.</translation>
    </message>
    <message>
        <source>The prompt; read from standard input when absent.</source>
        <translation>Der Prompt; fehlt er, wird er von der Standardeingabe gelesen.</translation>
    </message>
    <message>
        <source>A system message sent before the prompt.</source>
        <translation>Eine Systemnachricht, die vor dem Prompt gesendet wird.</translation>
    </message>
    <message>
        <source>Largest answer, in tokens.</source>
        <translation>Maximale Länge der Antwort in Tokens.</translation>
    </message>
    <message>
        <source>Environment variable holding the key (default: OPENAI_COMPAT_API_KEY).</source>
        <translation>Umgebungsvariable, die den Schlüssel enthält (Standard: OPENAI_COMPAT_API_KEY).</translation>
    </message>
    <message>
        <source>File holding the key; read again after a 401/403.</source>
        <translation>Datei, die den Schlüssel enthält; wird nach einem 401/403 erneut gelesen.</translation>
    </message>
    <message>
        <source>Ask for the whole answer at once instead of a stream.</source>
        <translation>Die ganze Antwort auf einmal statt als Stream anfordern.</translation>
    </message>
    <message>
        <source>Append the retry log here: JSON Lines, or CSV when PATH ends in .csv.</source>
        <translation>Das Wiederholungsprotokoll hier anhängen: JSON Lines oder CSV, wenn PATH auf .csv endet.</translation>
    </message>
    <message>
        <source>Run every wait and timeout F times as long (0 &lt; F &lt;= 1); figures stay in policy seconds.</source>
        <translation>Alle Wartezeiten und Zeitlimits mit dem Faktor F verkürzen (0 &lt; F &lt;= 1); die angezeigten Werte bleiben in Sekunden der Richtlinie.</translation>
    </message>
    <message>
        <source>Run the embedded capped provider on 127.0.0.1 until interrupted.</source>
        <translation>Den integrierten, begrenzten Anbieter auf 127.0.0.1 ausführen, bis er unterbrochen wird.</translation>
    </message>
    <message>
        <source>Port on 127.0.0.1; 0 picks a free one (default).</source>
        <translation>Port auf 127.0.0.1; 0 wählt einen freien (Standard).</translation>
    </message>
    <message>
        <source>What the provider plays: %1 (default: capped).</source>
        <translation>Was der Anbieter simuliert: %1 (Standard: capped).</translation>
    </message>
    <message>
        <source>Token cap per window (default: 6000).</source>
        <translation>Token-Obergrenze pro Fenster (Standard: 6000).</translation>
    </message>
    <message>
        <source>Length of the rolling window in seconds (default: 60).</source>
        <translation>Länge des gleitenden Fensters in Sekunden (Standard: 60).</translation>
    </message>
    <message>
        <source>Run windows and delays F times as long (0 &lt; F &lt;= 1).</source>
        <translation>Fenster und Verzögerungen mit dem Faktor F verkürzen (0 &lt; F &lt;= 1).</translation>
    </message>
    <message>
        <source>Answer the first N requests with the headline token-limit 422 (default: 0).</source>
        <translation>Die ersten N Anfragen mit dem Token-Limit-Fehler 422 aus dem Szenario „headline“ beantworten (Standard: 0).</translation>
    </message>
    <message>
        <source>Model name; required unless the endpoint is loopback (the demo provider), where it defaults to capwatch-demo.</source>
        <translation>Modellname; erforderlich, außer bei einem Loopback-Endpunkt (dem Demo-Anbieter), wo er standardmäßig capwatch-demo ist.</translation>
    </message>
    <message>
        <source>Sampling temperature, 0 to 2 (default: the provider&apos;s).</source>
        <translation>Sampling-Temperatur, 0 bis 2 (Standard: die des Anbieters).</translation>
    </message>
    <message>
        <source>Language of the token-limit errors of capped and headline: %1 (default: en).</source>
        <translation>Sprache der Token-Limit-Fehler von capped und headline: %1 (Standard: en).</translation>
    </message>
    <message>
        <source>Largest request in tokens for the context scenario (default: 2000).</source>
        <translation>Größte Anfrage in Tokens für das Szenario context (Standard: 2000).</translation>
    </message>
    <message>
        <source>Chat requests per window, reported in every scenario and enforced in capped (default: 1000).</source>
        <translation>Chat-Anfragen je Fenster, in jedem Szenario gemeldet und in capped durchgesetzt (Standard: 1000).</translation>
    </message>
    <message>
        <source>Answer a request with stream_options with a 400, as providers that do not know it do.</source>
        <translation>Eine Anfrage mit stream_options mit einem 400 beantworten, wie Anbieter, die es nicht kennen.</translation>
    </message>
    <message>
        <source>A response header, &apos;Name: value&apos;. Repeatable. With a 2xx status, &apos;Content-Type: text/event-stream&apos; reads the body as an event stream.</source>
        <translation>Ein Antwort-Header, &apos;Name: Wert&apos;. Wiederholbar. Bei einem 2xx-Status liest &apos;Content-Type: text/event-stream&apos; den Body als Event-Stream.</translation>
    </message>
    <message>
        <source>Keep nothing on disk: the send is not stored in the history database.</source>
        <translation>Nichts auf dem Datenträger speichern: Die Anfrage wird nicht in der Verlaufsdatenbank abgelegt.</translation>
    </message>
    <message>
        <source>Store the send in this history database instead of the one capwatch and capwatch-cli share (~/.local/share/capwatch/history.sqlite).</source>
        <translation>Die Anfrage in dieser Verlaufsdatenbank speichern statt in der, die capwatch und capwatch-cli gemeinsam nutzen (~/.local/share/capwatch/history.sqlite).</translation>
    </message>
    <message>
        <source>Scenarios:</source>
        <translation>Szenarien:</translation>
    </message>
    <message>
        <source>List, show and export the conversations and retry logs capwatch keeps.</source>
        <translation>Die von capwatch gespeicherten Unterhaltungen und Wiederholungsprotokolle auflisten, anzeigen und exportieren.</translation>
    </message>
    <message>
        <source>Sum the usage ledger: sends, attempts, tokens, cost, time lost to waits, refusals.</source>
        <translation>Das Nutzungsbuch summieren: Sendungen, Versuche, Token, Kosten, durch Wartezeiten verlorene Zeit, Ablehnungen.</translation>
    </message>
    <message>
        <source>Attempts from then on: 7d, 24h, 30d (that long ago) or YYYY-MM-DD (local midnight). Default: 30d.</source>
        <translation>Versuche ab dann: 7d, 24h, 30d (so lange her) oder JJJJ-MM-TT (lokale Mitternacht). Standard: 30d.</translation>
    </message>
    <message>
        <source>Attempts up to the end of DATE, YYYY-MM-DD (local time). Default: now.</source>
        <translation>Versuche bis zum Ende von DATUM, JJJJ-MM-TT (Ortszeit). Standard: jetzt.</translation>
    </message>
    <message>
        <source>Group by day (local), model, profile or conversation (default: day).</source>
        <translation>Nach Tag (lokal), Modell, Profil oder Unterhaltung gruppieren (Standard: Tag).</translation>
    </message>
    <message>
        <source>table (aligned, the default), json (one object: groups and total, exact numbers) or csv.</source>
        <translation>table (ausgerichtet, Standard), json (ein Objekt: Gruppen und Summe, exakte Zahlen) oder csv.</translation>
    </message>
    <message>
        <source>The history database (default: the window&apos;s, history.sqlite in capwatch&apos;s data folder). It is only read: never created, migrated or moved.</source>
        <translation>Die Verlaufsdatenbank (Standard: die des Fensters, history.sqlite im Datenordner von capwatch). Sie wird nur gelesen, nie angelegt, migriert oder verschoben.</translation>
    </message>
    <message>
        <source>list: how many conversations, newest first (default: 20).</source>
        <translation>list: wie viele Unterhaltungen, die neuesten zuerst (Standard: 20).</translation>
    </message>
    <message>
        <source>list: a JSON array instead of the table.</source>
        <translation>list: ein JSON-Array statt der Tabelle.</translation>
    </message>
    <message>
        <source>export (required), show: the retry records as jsonl (JSON Lines) or csv.</source>
        <translation>export (erforderlich), show: die Wiederholungseinträge als jsonl (JSON Lines) oder csv.</translation>
    </message>
    <message>
        <source>export: records from DATE on, YYYY-MM-DD (local midnight) or an ISO 8601 date and time (with Z or an offset; without, local time).</source>
        <translation>export: Einträge ab DATE, als YYYY-MM-DD (Mitternacht Ortszeit) oder als Datum mit Uhrzeit nach ISO 8601 (mit Z oder einem Offset; ohne: Ortszeit).</translation>
    </message>
    <message>
        <source>export: records before DATE, written as for --since.</source>
        <translation>export: Einträge vor DATE, angegeben wie bei --since.</translation>
    </message>
    <message>
        <source>export: write the file PATH, complete or not at all, instead of standard output.</source>
        <translation>export: statt auf die Standardausgabe in die Datei PATH schreiben, vollständig oder gar nicht.</translation>
    </message>
    <message>
        <source>Subcommands:</source>
        <translation>Unterbefehle:</translation>
    </message>
    <message>
        <source>The newest conversations: ID (its first 8 digits), last update (local time), marks (R: retried, U: unanswered), model, title.</source>
        <translation>Die neuesten Unterhaltungen: ID (ihre ersten 8 Stellen), letzte Änderung (Ortszeit), Markierungen (R: wiederholt, U: unbeantwortet), Modell, Titel.</translation>
    </message>
    <message>
        <source>One conversation by its ID (the UUID, or a unique prefix of at least 8 digits): header, transcript, sends and retry log.</source>
        <translation>Eine Unterhaltung anhand ihrer ID (die UUID oder ein eindeutiges Präfix aus mindestens 8 Stellen): Kopfdaten, Transkript, Anfragen und Wiederholungsprotokoll.</translation>
    </message>
    <message>
        <source>Every retry record from --since until --until, oldest first: the retry log&apos;s columns, then conversation.</source>
        <translation>Alle Wiederholungseinträge von --since bis --until, die ältesten zuerst: die Spalten des Wiederholungsprotokolls, dann die Spalte conversation.</translation>
    </message>
    <message>
        <source>Seconds from the first request until the reset scenario&apos;s cap frees (default: 180).</source>
        <translation>Sekunden von der ersten Anfrage, bis das Limit des Szenarios reset frei wird (Standard: 180).</translation>
    </message>
    <message>
        <source>Also as --wait-for-reset=MAX (90s, 20m, 2h; default 1h, at most 24h): when the send gives up at its provider&apos;s limit and the limit resets within MAX, wait for the reset and send it again; Ctrl+C cancels.</source>
        <translation>Auch als --wait-for-reset=MAX (90s, 20m, 2h; Standard: 1h, höchstens 24h): Gibt die Anfrage am Limit ihres Anbieters auf und wird das Limit innerhalb von MAX zurückgesetzt, auf die Zurücksetzung warten und sie erneut senden; Strg+C bricht ab.</translation>
    </message>
    <message>
        <source>--wait-for-reset takes MAX after an equals sign (--wait-for-reset=%1), not as the next argument</source>
        <translation>--wait-for-reset erwartet MAX nach einem Gleichheitszeichen (--wait-for-reset=%1), nicht als nächstes Argument</translation>
    </message>
    <message>
        <source>--wait-for-reset=MAX takes a whole number of seconds, minutes or hours from 1s to 24h, such as 90s, 20m or 2h, not &apos;%1&apos;</source>
        <translation>--wait-for-reset=MAX erwartet eine ganze Zahl von Sekunden, Minuten oder Stunden von 1s bis 24h, etwa 90s, 20m oder 2h, nicht „%1“</translation>
    </message>
    <message>
        <source>not parked: the limit resets in %1, beyond --wait-for-reset=%2</source>
        <translation>nicht geparkt: Das Limit wird erst in %1 zurückgesetzt, später als --wait-for-reset=%2</translation>
    </message>
    <message>
        <source>the limit has reset; sending again</source>
        <translation>das Limit wurde zurückgesetzt; wird erneut gesendet</translation>
    </message>
    <message>
        <source>cancelled while parked; not sent again</source>
        <translation>während des Parkens abgebrochen; nicht erneut gesendet</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>parked until %1 (in %2); Ctrl+C cancels</source>
        <translation>geparkt bis %1 (in %2); Strg+C bricht ab</translation>
    </message>
    <message>
        <source>sending in %1</source>
        <translation>Senden in %1</translation>
    </message>
    <message>
        <source>still parked; sending in %1</source>
        <translation>weiterhin geparkt; Senden in %1</translation>
    </message>
    <message>
        <source>Send at once even when the provider&apos;s last report says its window is full (by default the send waits, up to 60 s, for the window to reset).</source>
        <translation>Sofort senden, auch wenn das Kontingentfenster laut letzter Meldung des Anbieters ausgeschöpft ist (standardmäßig wartet die Anfrage bis zu 60 s auf die Zurücksetzung des Fensters).</translation>
    </message>
    <message>
        <source>A provider profile of the settings file, by id or name: its endpoint, model, key source, headers, context window and retry numbers (the flags given here win). &apos;demo&apos; runs the embedded demo provider in-process.</source>
        <translation>Ein Anbieterprofil der Einstellungsdatei, nach ID oder Name: dessen Endpunkt, Modell, Schlüsselquelle, Header, Kontextfenster und Wiederholungswerte (hier angegebene Optionen haben Vorrang). „demo“ führt den integrierten Demo-Anbieter im selben Prozess aus.</translation>
    </message>
    <message>
        <source>Read --profile from this settings file instead of the window&apos;s (~/.config/capwatch/capwatch.conf).</source>
        <translation>--profile aus dieser Einstellungsdatei lesen statt aus der des Fensters (~/.config/capwatch/capwatch.conf).</translation>
    </message>
    <message>
        <source>Longest single wait, 1 to 600 s (default: the profile&apos;s, else 60).</source>
        <translation>Längste einzelne Wartezeit, 1 bis 600 s (Standard: die des Profils, sonst 60).</translation>
    </message>
    <message>
        <source>All waits of the send together, 0 to 3600 s; 0: no retries (default: the profile&apos;s, else 120).</source>
        <translation>Alle Wartezeiten der Anfrage zusammen, 0 bis 3600 s; 0: keine Wiederholungen (Standard: das des Profils, sonst 120).</translation>
    </message>
    <message>
        <source>Attempts, the first included, 1 to 10 (default: the profile&apos;s, else 5).</source>
        <translation>Versuche, der erste eingeschlossen, 1 bis 10 (Standard: die des Profils, sonst 5).</translation>
    </message>
    <message>
        <source>First backoff wait, doubled each retry, 1 to 60 s (default: the profile&apos;s, else 5).</source>
        <translation>Erste Backoff-Wartezeit, bei jeder Wiederholung verdoppelt, 1 bis 60 s (Standard: die des Profils, sonst 5).</translation>
    </message>
    <message>
        <source>When the send ends capped, send it once to the profile&apos;s fallback (a profile with fallback_auto=true does so without this flag).</source>
        <translation>Endet die Anfrage am Limit, sie einmal an das Ausweichprofil des Profils senden (ein Profil mit fallback_auto=true tut das auch ohne diese Option).</translation>
    </message>
    <message>
        <source>List the provider profiles of the settings file (capwatch.conf), never a key.</source>
        <translation>Die Anbieterprofile der Einstellungsdatei (capwatch.conf) auflisten, niemals einen Schlüssel.</translation>
    </message>
    <message>
        <source>Read the profiles from this file instead of the window&apos;s settings file (~/.config/capwatch/capwatch.conf).</source>
        <translation>Die Profile aus dieser Datei lesen statt aus der Einstellungsdatei des Fensters (~/.config/capwatch/capwatch.conf).</translation>
    </message>
    <message>
        <source>Print a JSON array, one object a profile.</source>
        <translation>Ein JSON-Array ausgeben, ein Objekt je Profil.</translation>
    </message>
    <message>
        <source>The endpoint the response came from: rules scoped to an endpoint apply only to its responses.</source>
        <translation>Der Endpunkt, von dem die Antwort kam: Regeln, die auf einen Endpunkt beschränkt sind, gelten nur für seine Antworten.</translation>
    </message>
    <message>
        <source>Also use this rules file for this run, after those of ~/.config/capwatch/rules.d. Repeatable. A file with a problem is reported and left out.</source>
        <translation>Für diesen Lauf zusätzlich diese Regeldatei verwenden, nach denen aus ~/.config/capwatch/rules.d. Wiederholbar. Eine fehlerhafte Datei wird gemeldet und ausgelassen.</translation>
    </message>
    <message>
        <source>Check a rules file, or list the classification rules in force and where each came from.</source>
        <translation>Eine Regeldatei prüfen oder die geltenden Klassifizierungsregeln mit ihrer Herkunft auflisten.</translation>
    </message>
    <message>
        <source>list: also a rules file of this run, after those of ~/.config/capwatch/rules.d. Repeatable.</source>
        <translation>list: zusätzlich eine Regeldatei für diesen Lauf, nach denen aus ~/.config/capwatch/rules.d. Wiederholbar.</translation>
    </message>
    <message>
        <source>Tokens of new text per answer in the length scenario; 0 gives empty answers (default: 100).</source>
        <translation>Tokens neuen Textes je Antwort im Szenario length; 0 ergibt leere Antworten (Standard: 100).</translation>
    </message>
    <message>
        <source>Bytes of an answer the drop scenario sends before it closes the connection (default: 680).</source>
        <translation>Bytes einer Antwort, die das Szenario drop sendet, bevor es die Verbindung schließt (Standard: 680).</translation>
    </message>
    <message>
        <source>How the drop scenario breaks a stream: close (the connection, default) or error (an error event after the first words).</source>
        <translation>Wie das Szenario drop einen Stream abbricht: close (die Verbindung, Standard) oder error (ein Fehlerereignis nach den ersten Wörtern).</translation>
    </message>
    <message>
        <source>Also as --continue-cut-off=N (1 to 3, default 3): when the answer is cut off at the output limit, ask the model to go on from where it stopped, up to N times in a row; each continuation is joined to the same answer.</source>
        <translation>Auch als --continue-cut-off=N (1 bis 3, Standard: 3): Wird die Antwort am Ausgabelimit abgeschnitten, das Modell bitten, dort weiterzumachen, wo es aufhörte, bis zu N-mal hintereinander; jede Fortsetzung wird an dieselbe Antwort angefügt.</translation>
    </message>
    <message>
        <source>Instead of a prompt: go on with the last answer of stored conversation ID (its UUID or first 8 hex digits), when it was cut off or interrupted; what comes is joined to it in the history.</source>
        <translation>Statt eines Prompts: die letzte Antwort der gespeicherten Unterhaltung ID (ihre UUID oder ihre ersten 8 Hex-Stellen) fortsetzen, wenn sie abgeschnitten oder unterbrochen wurde; was kommt, wird im Verlauf an sie angefügt.</translation>
    </message>
    <message>
        <source>Report what each answer cost in its usage, as OpenRouter does: &quot;cost&quot;, its tokens times X credits per million tokens (default: no cost).</source>
        <translation>Meldet in der usage jeder Antwort, was sie gekostet hat, wie OpenRouter: &quot;cost&quot;, ihre Tokens mal X Credits je Million Tokens (Standard: keine Kosten).</translation>
    </message>
    <message>
        <source>Requests the daily scenario answers per day of the demo&apos;s clock, which --time-scale shortens (default: 5).</source>
        <translation>Anfragen, die das Szenario daily je Tag der Demo-Uhr beantwortet, den --time-scale verkürzt (Standard: 5).</translation>
    </message>
    <message>
        <source>Send even when the send would cross a spending limit of the profile, or a daily limit it declares for its provider (by default it is not sent, and capwatch-cli exits 5).</source>
        <translation>Auch dann senden, wenn die Anfrage ein Verbrauchslimit des Profils oder ein für seinen Anbieter hinterlegtes Tageslimit überschreiten würde (standardmäßig wird sie nicht gesendet, und capwatch-cli endet mit Code 5).</translation>
    </message>
    <message>
        <source>not sent: %1 (profile %2); the limit resets at %3. --ignore-spend-limit sends anyway</source>
        <translation>nicht gesendet: %1 (Profil %2); Zurücksetzung des Limits: %3. --ignore-spend-limit sendet trotzdem</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>unexpected argument &apos;%1&apos;</source>
        <translation>unerwartetes Argument „%1“</translation>
    </message>
    <message>
        <source>--time-scale takes a number F with 0 &lt; F &lt;= 1</source>
        <translation>--time-scale erwartet eine Zahl F mit 0 &lt; F &lt;= 1</translation>
    </message>
    <message>
        <source>Chat with this endpoint (base URL or .../chat/completions) for this run.</source>
        <translation>Mit diesem Endpunkt chatten (Basis-URL oder .../chat/completions), nur für diesen Start.</translation>
    </message>
    <message>
        <source>Use this model for this run.</source>
        <translation>Dieses Modell nur für diesen Start verwenden.</translation>
    </message>
    <message>
        <source>Chat with the embedded demo provider, whatever is configured.</source>
        <translation>Mit dem integrierten Demo-Anbieter chatten, unabhängig von der Konfiguration.</translation>
    </message>
    <message>
        <source>Send this prompt once the window is shown.</source>
        <translation>Diesen Prompt senden, sobald das Fenster angezeigt wird.</translation>
    </message>
    <message>
        <source>Run every wait and timeout F times as long (0 &lt; F &lt;= 1); figures stay in policy seconds.</source>
        <translation>Alle Wartezeiten und Zeitlimits mit dem Faktor F verkürzen (0 &lt; F &lt;= 1); die angezeigten Werte bleiben in Sekunden der Richtlinie.</translation>
    </message>
    <message>
        <source>User interface language (de, zh_CN, ...); default: the system&apos;s.</source>
        <translation>Sprache der Benutzeroberfläche (de, zh_CN, …); Standard: die des Systems.</translation>
    </message>
    <message>
        <source>Print the man page (roff) and exit.</source>
        <translation>Die Handbuchseite (roff) ausgeben und beenden.</translation>
    </message>
    <message>
        <source>A chat client for OpenAI-compatible providers with strict token caps, showing every retry as it happens.</source>
        <translation>Ein Chat-Client für OpenAI-kompatible Anbieter mit strikten Token-Obergrenzen, der jede Wiederholung live anzeigt.</translation>
    </message>
    <message>
        <source>Keep nothing on disk for this run: its conversations are not added to the history.</source>
        <translation>Für diesen Start nichts auf dem Datenträger speichern: Seine Unterhaltungen werden nicht in den Verlauf aufgenommen.</translation>
    </message>
</context>
</TS>
