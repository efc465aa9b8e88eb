import { can } from '@shared/catalogue-roles.js';
import { CatalogueSettings } from '@/features/catalogues/components/CatalogueSettings.js';
import { WebhooksSection } from '@/features/webhooks/components/WebhooksSection.js';

/**
 * `/catalogues/:catalogueId/settings`, the personal catalogue's too: the catalogue's own settings
 * with the webhooks section for those who may manage them (features do not import each other,
 * so they meet here). Not in app/components: that folder is the shell chunk every page loads.
 */
export function CatalogueSettingsScreen() {
  return (
    <CatalogueSettings
      extra={(catalogue) =>
        can(catalogue.role, 'manageWebhooks') && <WebhooksSection catalogue={catalogue} />
      }
    />
  );
}
