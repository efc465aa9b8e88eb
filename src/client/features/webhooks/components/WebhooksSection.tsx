import { useState } from 'react';
import { Controller } from 'react-hook-form';
import type { Catalogue } from '@shared/schemas/catalogues.js';
import type { Webhook } from '@shared/schemas/webhooks/webhooks.js';
import { WEBHOOK_EVENTS, type WebhookEvent } from '@shared/webhook-events.js';
import { Button } from '@/components/ui/Button.js';
import { Card } from '@/components/ui/Card.js';
import { confirmAction } from '@/components/dialogs/confirm-action.js';
import { FormSubmitButton, FormTextField } from '@/components/forms/FormField.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { formatDateTime } from '@/lib/format.js';
import { useZodForm } from '@/lib/forms/form.js';
import { notifyError, notifySuccess } from '@/lib/notify.js';
import { useCreateWebhook } from '../api/create-webhook.js';
import { useDeleteWebhook } from '../api/delete-webhook.js';
import { useWebhooks } from '../api/get-webhooks.js';
import { useTestWebhook } from '../api/test-webhook.js';
import { useUpdateWebhook } from '../api/update-webhook.js';

const webhookSchema = () =>
  import('@shared/schemas/webhooks/webhooks.js').then((m) => m.webhookBodySchema);

/** How each event reads on screen. */
const EVENT_LABELS: Record<WebhookEvent, string> = {
  'product.created': 'Product created',
  'product.updated': 'Product updated',
  'product.deleted': 'Product deleted',
  'products.deleted': 'Products deleted together',
  'import.done': 'Import done',
  'stock.moved': 'Stock moved',
  'stock.transferred': 'Stock transferred between locations',
  'stock.imported': 'Stock counts imported by location',
  'member.added': 'Member added',
  'member.role_changed': 'Member role changed',
  'member.removed': 'Member removed',
  'catalogue.renamed': 'Catalogue renamed',
  'catalogue.reorder_point_changed': "Catalogue's reorder point changed",
  'supplier.created': 'Supplier added',
  'supplier.updated': 'Supplier edited',
  'supplier.deleted': 'Supplier deleted',
  'product.suppliers_changed': "Product's suppliers changed",
  'purchase_order.created': 'Purchase order drafted',
  'purchase_order.updated': 'Purchase order edited',
  'purchase_order.ordered': 'Purchase order placed',
  'purchase_order.cancelled': 'Purchase order cancelled',
  'purchase_order.deleted': 'Purchase order deleted',
  'purchase_order.received': 'Stock received against a purchase order',
  'purchase_order.sent': 'Purchase order sent to the supplier',
  'count.posted': 'Stock count posted',
  'location.created': 'Location added',
  'location.updated': 'Location renamed, moved or recoded',
  'location.deleted': 'Location deleted',
  undo: 'Change undone',
  'reorder.reached': 'Reorder point reached',
};

/** A new endpoint's events: the products' changes, and stock moving, what most endpoints are for. */
const DEFAULT_EVENTS: WebhookEvent[] = [
  'product.created',
  'product.updated',
  'product.deleted',
  'stock.moved',
];

/**
 * For owner and admins: the HTTPS endpoints told of the catalogue's changes. Adding one shows its
 * signing secret once; each endpoint shows how its last delivery went, and can be tested,
 * switched off and on, or deleted.
 */
export function WebhooksSection({ catalogue }: { catalogue: Catalogue }) {
  const [secret, setSecret] = useState<string | null>(null);
  const form = useZodForm(webhookSchema, {
    defaultValues: { url: '', events: DEFAULT_EVENTS },
  });
  const create = useCreateWebhook({
    mutationConfig: {
      onSuccess: ({ message, secret: shown }) => {
        notifySuccess(message);
        setSecret(shown);
        form.reset({ url: '', events: form.getValues('events') });
      },
    },
  });
  return (
    <Card className="p-4 sm:p-6">
      <section aria-labelledby="catalogue-webhooks" className="space-y-6">
        <div>
          <h2 id="catalogue-webhooks" className="text-base font-semibold text-gray-900">
            Webhooks
          </h2>
          <p className="mt-1 text-sm text-gray-600">
            HTTPS endpoints that are sent each chosen event, signed with their secret.
          </p>
        </div>
        <form
          noValidate
          onFocus={form.preload}
          onSubmit={form.submit((values) =>
            create.mutateAsync({ catalogueId: catalogue.id, ...values }),
          )}
          className="space-y-4"
        >
          <FormTextField
            form={form}
            name="url"
            label="Endpoint URL"
            type="url"
            autoComplete="off"
            placeholder="https://example.com/hooks/stockroom"
          />
          <Controller
            control={form.control}
            name="events"
            render={({ field, fieldState }) => (
              <fieldset>
                <legend className="text-sm font-medium text-gray-900">Events</legend>
                <div className="mt-2 grid gap-2 sm:grid-cols-2">
                  {WEBHOOK_EVENTS.map((event) => (
                    <label key={event} className="flex cursor-pointer items-center gap-2 text-sm">
                      <input
                        type="checkbox"
                        name={field.name}
                        value={event}
                        checked={field.value.includes(event)}
                        onChange={(e) =>
                          field.onChange(
                            e.target.checked
                              ? [...field.value, event]
                              : field.value.filter((chosen) => chosen !== event),
                          )
                        }
                        onBlur={field.onBlur}
                        className="accent-indigo-600"
                      />
                      <span className="text-gray-900">{EVENT_LABELS[event]}</span>
                      <code className="text-xs text-gray-500">{event}</code>
                    </label>
                  ))}
                </div>
                {fieldState.error?.message && (
                  <p className="mt-2 text-sm text-red-700">{fieldState.error.message}</p>
                )}
              </fieldset>
            )}
          />
          <FormSubmitButton form={form} busyLabel="Adding...">
            Add endpoint
          </FormSubmitButton>
        </form>
        {secret && <SecretOnce secret={secret} onDone={() => setSecret(null)} />}
        <Endpoints catalogueId={catalogue.id} />
      </section>
    </Card>
  );
}

/** The signing secret, shown this once, with a copy button. */
function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch (error) {
      notifyError(error);
    }
  };
  return (
    <div role="status" className="space-y-2 rounded-lg bg-amber-50 p-4 ring-1 ring-amber-200">
      <p className="text-sm font-semibold text-gray-900">Signing secret</p>
      <p className="text-sm text-gray-700">
        Copy it now: it is not shown again. Your endpoint verifies each request with it.
      </p>
      <code
        data-testid="webhook-secret"
        className="block rounded bg-white p-2 font-mono text-xs break-all text-gray-900 ring-1 ring-gray-200"
      >
        {secret}
      </code>
      <div className="flex gap-2">
        <Button variant="secondary" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy secret'}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}

/** How the newest attempt went, in words. */
function lastStatus(webhook: Webhook): string {
  if (webhook.lastAttemptAt === null) return 'Not called yet';
  const at = formatDateTime(webhook.lastAttemptAt);
  if (webhook.lastSucceeded) return `Delivered (HTTP ${webhook.lastStatus}) · ${at}`;
  const why = webhook.lastStatus === null ? webhook.lastError : `HTTP ${webhook.lastStatus}`;
  return `Failed (${why}) · ${at}`;
}

function Endpoints({ catalogueId }: { catalogueId: string }) {
  const webhooks = useWebhooks(catalogueId);
  const test = useTestWebhook({
    mutationConfig: {
      onSuccess: ({ delivery }) =>
        delivery.status === 'delivered'
          ? notifySuccess('Test event delivered')
          : notifyError(new Error(`Test event failed: ${delivery.lastError ?? 'no answer'}`)),
      onError: notifyError,
    },
  });
  const update = useUpdateWebhook({
    mutationConfig: { onSuccess: ({ message }) => notifySuccess(message), onError: notifyError },
  });
  const remove = useDeleteWebhook({
    mutationConfig: { onSuccess: ({ message }) => notifySuccess(message), onError: notifyError },
  });

  const onDelete = async (webhook: Webhook) => {
    const confirmed = await confirmAction(
      'Delete this webhook?',
      `${webhook.url} will no longer be sent events.`,
      'Yes, delete it!',
    );
    if (confirmed) remove.mutate({ catalogueId, webhookId: webhook.id });
  };

  if (webhooks.isError && !webhooks.data) {
    return (
      <p role="alert" className="text-sm font-medium text-red-700">
        {getErrorMessage(webhooks.error)}
      </p>
    );
  }
  return (
    <div>
      <h3 className="text-sm font-semibold text-gray-900">Endpoints</h3>
      {webhooks.data?.length === 0 ? (
        <p className="mt-2 text-sm text-gray-600">None yet.</p>
      ) : (
        <ul className="mt-2 divide-y divide-gray-200 rounded-lg ring-1 ring-gray-200">
          {webhooks.data?.map((webhook) => (
            <li
              key={webhook.id}
              aria-label={webhook.url}
              className="flex flex-wrap items-center gap-x-4 gap-y-2 p-3"
            >
              <div className="min-w-0 flex-1">
                <p className="text-sm font-medium break-all text-gray-900">
                  {webhook.url}
                  {!webhook.enabled && (
                    <span className="ml-2 rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-700">
                      Disabled
                    </span>
                  )}
                </p>
                <p className="text-xs text-gray-600">{webhook.events.join(', ')}</p>
                <p
                  data-testid="webhook-status"
                  className={`text-xs ${webhook.lastSucceeded === false ? 'text-red-700' : 'text-gray-600'}`}
                >
                  {lastStatus(webhook)}
                </p>
              </div>
              <div className="flex flex-wrap gap-1">
                <Button
                  variant="secondary"
                  busy={test.isPending && test.variables.webhookId === webhook.id}
                  busyLabel="Sending..."
                  onClick={() => test.mutate({ catalogueId, webhookId: webhook.id })}
                >
                  Send test
                </Button>
                <Button
                  variant="ghost"
                  disabled={update.isPending}
                  onClick={() =>
                    update.mutate({ catalogueId, webhookId: webhook.id, enabled: !webhook.enabled })
                  }
                >
                  {webhook.enabled ? 'Disable' : 'Enable'}
                </Button>
                <Button
                  variant="ghost"
                  aria-label={`Delete the webhook ${webhook.url}`}
                  disabled={remove.isPending}
                  onClick={() => void onDelete(webhook)}
                  className="text-red-700"
                >
                  Delete
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
